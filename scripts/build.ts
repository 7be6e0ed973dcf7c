/** `npm run build`: builds a content folder into a static Weblate API tree. */
import { buildDirectory } from '../src/build.ts';
import { defineCommand, runMain } from '../src/cli/command.ts';
import { HOST_OPTION, hostOption } from '../src/cli/host-option.ts';
import { countOf, formatBytes, progressReporter } from '../src/cli/progress.ts';
import { SITE_OPTIONS, siteOverrides } from '../src/cli/site-options.ts';
import { formatContentErrors } from '../src/errors.ts';

const command = defineCommand({
  name: 'build',
  description:
    'Build a content folder into a static copy of the Weblate 4.x REST API (DIR/api/.../index.json). ' +
    'A tree built before with the same settings is updated in place: only files whose bytes change are rewritten.',
  options: {
    content: { type: 'string', valueName: 'DIR', description: 'content folder to read', default: 'content' },
    out: { type: 'string', valueName: 'DIR', description: 'output folder (its manifest is kept in DIR.state/)', default: 'dist' },
    full: { type: 'boolean', description: 'write a whole new tree even when the existing one could be updated in place' },
    ...SITE_OPTIONS,
    ...HOST_OPTION,
  },
  epilog:
    'Examples:\n  npm run build -- --content content --out dist --base-url https://l10n.example.org\n' +
    '  npm run build -- --base-url https://l10n.example.org --host netlify',
  async run(args, io) {
    const report = await buildDirectory({
      contentDir: args.content,
      outDir: args.out,
      full: args.full,
      site: siteOverrides(args),
      host: hostOption(args.host),
      onProgress: progressReporter(io, 'Writing'),
    });
    if (report.errors.length > 0) {
      io.err(formatContentErrors(report.errors) + '\n');
      return 1;
    }
    const seconds = (report.durationMs / 1000).toFixed(2);
    const translations = countOf(report.translations, 'translation');
    io.out(
      report.mode === 'fresh'
        ? `Built ${countOf(report.files, 'file')} (${formatBytes(report.bytes)}) for ${translations} into ${args.out}/ in ${seconds} s.\n`
        : `Updated ${args.out}/ in place: ${countOf(report.files, 'file')} rewritten, ` +
            `${countOf(report.groupsRendered ?? 0, 'group')} re-rendered, ${countOf(report.groupsRemoved ?? 0, 'group')} removed, ` +
            `for ${translations} in ${seconds} s.\n`,
    );
    return 0;
  },
});

await runMain(command);
