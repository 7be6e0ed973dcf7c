/** `npm run build`: builds a content folder into a static Weblate API tree. */
import { buildDirectory, checkOutput, type BuildReport } from '../src/build.ts';
import { contentFolder, outFolder } from '../src/cli/folders.ts';
import { defineCommand, runIfMain, type CommandIO } from '../src/cli/command.ts';
import { HOST_OPTION, hostOption } from '../src/cli/host-option.ts';
import { countOf, formatBytes, progressReporter } from '../src/cli/progress.ts';
import { SETTINGS_OPTIONS, settingsOverrides } from '../src/cli/settings-options.ts';
import { parsePort, stopSignal } from '../src/cli/serving.ts';
import { formatContentErrors, formatContentWarnings, UsageError } from '../src/errors.ts';
import type { RootHost } from '../src/hosts/index.ts';
import { lockTree } from '../src/tree/lock.ts';
import { describeSettingsInEffect, type SettingsInEffect } from '../src/tree/settings.ts';

export const command = defineCommand({
  name: 'build',
  description:
    'Build a content folder into a static copy of the Weblate REST API, 4.x or 2026.8 (DIR/api/.../index.json), and its status site. ' +
    'A tree built before with the same settings is updated in place: only files whose bytes change are rewritten.',
  options: {
    content: {
      type: 'string',
      valueName: 'DIR',
      description: 'content folder to read',
      default: 'content',
    },
    out: {
      type: 'string',
      valueName: 'DIR',
      description: 'output folder (its manifest is kept in DIR.state/)',
      default: 'dist',
    },
    full: {
      type: 'boolean',
      description: 'write a whole new tree even when the existing one could be updated in place',
    },
    verify: {
      type: 'boolean',
      description:
        'check that every file of the tree is still there and write again those missing (each build checks a share)',
    },
    force: {
      type: 'boolean',
      description: 'replace the output folder even when it holds files this tool did not write',
    },
    watch: {
      type: 'boolean',
      description:
        'build, then keep watching the content folder and update the tree after each change (Ctrl+C to stop)',
    },
    serve: {
      type: 'boolean',
      description:
        'build, watch, and preview the tree over HTTP in the same process (as --watch, plus npm run serve)',
    },
    port: {
      type: 'string',
      valueName: 'N',
      description: 'with --serve: the port to preview on; 0 picks a free one',
      default: '8080',
    },
    ...SETTINGS_OPTIONS,
    ...HOST_OPTION,
    strict: {
      type: 'boolean',
      description: 'treat warnings (such as words or characters left out beside a count) as errors',
    },
  },
  epilog:
    'Examples:\n  npm run build -- --content content --out dist --base-url https://l10n.example.org\n' +
    '  npm run build -- --base-url https://l10n.example.org --host netlify\n' +
    '  npm run build -- --watch\n' +
    '  npm run build -- --serve',
  json: true,
  async run(args, io) {
    const settings = settingsOverrides(args);
    const host = hostOption(args.host);
    const content = contentFolder(args.content);
    const out = outFolder(args.out);
    const output = await checkOutput(out, { contentDir: content, force: args.force });
    if (!output.ok) throw new UsageError(output.message);
    const port = args.serve ? parsePort(args.port) : null;
    if (args.watch || args.serve)
      return watchBuild({ content, out, full: args.full, settings, host, port }, io);
    // One writer per tree: a sidecar or build --watch on it would overwrite this build with its own model.
    const locked = await lockTree(out, 'a build');
    if (!locked.ok) throw new UsageError(locked.message);
    const report = await buildDirectory({
      contentDir: content,
      outDir: out,
      full: args.full,
      verify: args.verify,
      settings,
      host,
      onProgress: progressReporter(io, 'Writing'),
      onSettingsChange: (change) => io.err(`${settingsNotice(out, change)}\n`),
      onNotice: (message) => io.err(`${message}\n`),
      strict: args.strict,
    }).finally(() => locked.lock.release());
    io.summary?.(buildSummary(out, report));
    if (report.errors.length > 0) {
      io.err(formatContentErrors(report.errors) + '\n');
      return 1;
    }
    saySettings(io, out, report.settings);
    if (report.warnings.length > 0) io.err(formatContentWarnings(report.warnings) + '\n');
    if (report.repaired)
      io.err(`Repaired ${countOf(report.repaired, 'file')} missing or replaced in ${out}/.\n`);
    const seconds = (report.durationMs / 1000).toFixed(2);
    const translations = countOf(report.translations, 'translation');
    io.out(
      report.mode === 'fresh'
        ? `Built ${countOf(report.files, 'file')} (${formatBytes(report.bytes)}) for ${translations} into ${out}/ in ${seconds} s.\n`
        : `Updated ${out}/ in place: ${countOf(report.files, 'file')} rewritten, ` +
            `${countOf(report.groupsRendered ?? 0, 'group')} re-rendered, ${countOf(report.groupsRemoved ?? 0, 'group')} removed, ` +
            `for ${translations} in ${seconds} s.\n`,
    );
    return 0;
  },
});

/** --json's summary of a build: what its line says, in numbers. */
function buildSummary(out: string, report: BuildReport): Record<string, unknown> {
  const { mode, files, bytes, translations, durationMs, errors, warnings } = report;
  return {
    out,
    mode,
    files,
    bytes,
    translations,
    groupsRendered: report.groupsRendered ?? null,
    groupsRemoved: report.groupsRemoved ?? null,
    repaired: report.repaired ?? 0,
    pngsDrawn: report.pngsDrawn ?? 0,
    errors: errors.length,
    warnings: warnings.length,
    durationMs: Math.round(durationMs),
  };
}

/** The one line said before a tree built with other settings is rewritten whole. */
function settingsNotice(out: string, change: string): string {
  return `${out}/ was built with other settings (${change}): writing a whole new tree.`;
}

/** The settings in effect, with their sources, when one differs from site.yaml's. */
function saySettings(io: CommandIO, out: string, settings: SettingsInEffect | null | undefined) {
  const said = settings && describeSettingsInEffect(out, settings);
  if (said) io.err(`${said}\n`);
}

/** --watch: the tree brought in line once, then updated after every change until Ctrl+C or SIGTERM. */
async function watchBuild(
  args: {
    content: string;
    out: string;
    full: boolean | undefined;
    settings: ReturnType<typeof settingsOverrides>;
    host: RootHost | null | undefined;
    /** --serve: the port to preview on; null without --serve. */
    port: number | null;
  },
  io: CommandIO,
): Promise<number> {
  const started = performance.now();
  // Loaded only here: a plain build (the scheduled, cold one) starts faster without the session, the watcher and the preview.
  const { INSTANCE_LIST_DELAY_MS, Session } = await import('../src/session/session.ts');
  const { watchContent } = await import('../src/session/watch.ts');
  const { linkNote, startPreview } = await import('../src/preview/preview.ts');
  const opened = await Session.open({
    contentDir: args.content,
    outDir: args.out,
    settings: args.settings,
    rootHost: args.host,
    full: args.full,
    instanceListDelay: INSTANCE_LIST_DELAY_MS,
    rebuild: true,
    holder: 'build --watch',
    onSettingsChange: (change) => io.err(`${settingsNotice(args.out, change)}\n`),
  });
  if (!opened.ok && 'locked' in opened) {
    io.err(`${opened.locked}\n`);
    return 1;
  }
  if (!opened.ok) {
    io.err(formatContentErrors('errors' in opened ? opened.errors : []) + '\n');
    return 1;
  }
  saySettings(io, args.out, opened.settings);
  const translations = countOf(opened.session.model.translations.length, 'translation');
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const watcher = watchContent(opened.session, {
    updated({ paths, stats, ms }) {
      io.out(
        `Updated ${args.out}/ in ${ms.toFixed(0)} ms after ${paths.join(', ')}: ${countOf(stats.filesWritten, 'file')} rewritten, ` +
          `${countOf(stats.groupsRendered, 'group')} re-rendered, ${countOf(stats.groupsRemoved, 'group')} removed.\n`,
      );
    },
    rejected({ errors }) {
      io.err(`${formatContentErrors(errors)}\nWaiting for the next change.\n`);
    },
    failed(error) {
      io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    },
  });
  const preview =
    args.port === null
      ? null
      : await startPreview({ outDir: args.out, port: args.port, log: io.err });
  if (preview && !preview.ok) {
    await watcher.close();
    io.err(`${preview.message}\n`);
    return 1;
  }
  // Listening before the lines that say it runs: a stop sent on reading them is never missed.
  const stopped = stopSignal(io);
  if (preview) {
    io.out(`Serving ${args.out}/ at ${preview.preview.url}\n`);
    const note = linkNote(preview.preview);
    if (note) io.out(`${note}\n`);
  }
  // Printed once every folder is watched: a change saved from now on is seen.
  io.out(
    `${args.out}/ is up to date with ${args.content}/ (${translations}, ${seconds} s); watching for changes (Ctrl+C to stop).\n`,
  );
  await stopped;
  await preview?.preview.close();
  await watcher.close();
  return 0;
}

await runIfMain(import.meta, command);
