/** `npm run build`: builds a content folder into a static Weblate API tree. */
import { build } from '../src/build.ts';
import { defineCommand, runMain } from '../src/cli/command.ts';
import { HOST_OPTION, hostOption } from '../src/cli/host-option.ts';
import { formatBytes, progressReporter } from '../src/cli/progress.ts';
import { SITE_OPTIONS, siteOverrides } from '../src/cli/site-options.ts';
import { formatContentErrors } from '../src/errors.ts';
import { dirTarget } from '../src/output/target.ts';

const command = defineCommand({
  name: 'build',
  description: 'Build a content folder into a static copy of the Weblate 4.x REST API (DIR/api/.../index.json).',
  options: {
    content: { type: 'string', valueName: 'DIR', description: 'content folder to read', default: 'content' },
    out: { type: 'string', valueName: 'DIR', description: 'output folder, replaced as a whole when the build succeeds', default: 'dist' },
    ...SITE_OPTIONS,
    ...HOST_OPTION,
  },
  epilog:
    'Examples:\n  npm run build -- --content content --out dist --base-url https://l10n.example.org\n' +
    '  npm run build -- --base-url https://l10n.example.org --host netlify',
  async run(args, io) {
    const report = await build(
      { contentDir: args.content, site: siteOverrides(args), host: hostOption(args.host), onProgress: progressReporter(io, 'Writing') },
      { target: dirTarget(args.out) },
    );
    if (report.errors.length > 0) {
      io.err(formatContentErrors(report.errors) + '\n');
      return 1;
    }
    const seconds = (report.durationMs / 1000).toFixed(2);
    io.out(
      `Built ${report.files.toLocaleString('en-US')} files (${formatBytes(report.bytes)}) ` +
        `for ${report.translations.toLocaleString('en-US')} translations into ${args.out}/ in ${seconds} s.\n`,
    );
    return 0;
  },
});

await runMain(command);
