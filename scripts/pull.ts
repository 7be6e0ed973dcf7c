/** `npm run pull`: mirrors a Weblate instance (4.x or 2026.8) into a content folder that builds into the same API. */
import { defineCommand, integerFlag, runIfMain, sizeFlag } from '../src/cli/command.ts';
import { countOf } from '../src/cli/progress.ts';
import { formatContentError, TemporaryError, UsageError } from '../src/errors.ts';
import { pullDisplay } from '../src/cli/pull-progress.ts';
import { UPSTREAM_OPTIONS, upstreamToken } from '../src/cli/upstream-options.ts';
import { defaultPullDeps, normalizeApiUrl, pull, type PullReport } from '../src/pull/pull.ts';
import { DEFAULT_SWEEP_EVERY, parseSweepEvery } from '../src/pull/sweep.ts';

export const command = defineCommand({
  name: 'pull',
  description:
    'Mirror a Weblate instance, 4.x or 2026.8 (the content is written in its flavour): read its API (projects, components, translations with their statistics, languages) ' +
    'and write a content folder that builds into the same API. Into an earlier pull, only what changed upstream is read again.',
  options: {
    from: {
      type: 'string',
      valueName: 'URL',
      description: 'API root of the instance, such as https://weblate.example.org/api/',
    },
    out: {
      type: 'string',
      valueName: 'DIR',
      description:
        'content folder to write: new, empty, or an earlier pull (updated incrementally)',
    },
    full: {
      type: 'boolean',
      description:
        'read everything, even into an earlier pull (catches what an incremental pull cannot see)',
    },
    ...UPSTREAM_OPTIONS,
    'sweep-every': {
      type: 'string',
      valueName: 'N|Th',
      description: `how often an incremental pull reads every project's statistics: every N runs (12) or once T hours passed (6h); kept in the record (default ${DEFAULT_SWEEP_EVERY})`,
    },
    concurrency: {
      type: 'string',
      valueName: 'N',
      description: 'requests in flight at once, 1 to 16',
      default: '4',
    },
    retries: {
      type: 'string',
      valueName: 'N',
      description: 'retries after a network error or HTTP 5xx, 0 to 10',
      default: '4',
    },
    'max-wait': {
      type: 'string',
      valueName: 'SECONDS',
      default: '600',
      description:
        'longest wait accepted when rate limited; a longer one stops the pull, to be resumed later',
    },
    'max-bytes': {
      type: 'string',
      valueName: 'SIZE',
      default: '4G',
      description:
        'the most a pull reads from the server (answers resumed included), such as 500M or 8G; more stops it',
    },
  },
  epilog:
    'An interrupted pull keeps what it fetched in DIR/.pull-state.jsonl; the same command resumes it.\n' +
    'A pull into an earlier pull reads only what changed (DIR/.pull-record.json); run it with --full now and then (docs/pull.md).\n\n' +
    'Example:\n  npm run pull -- --from https://weblate.example.org/api/ --out mirror\n  npm run build -- --content mirror --out dist',
  json: true,
  async run(args, io) {
    if (!args.from || !args.out) throw new UsageError('pull needs --from URL and --out DIR');
    const from = normalizeApiUrl(args.from);
    if (!from.ok) throw new UsageError(from.message);
    const sweepEvery = args['sweep-every'];
    if (sweepEvery !== undefined && parseSweepEvery(sweepEvery) === null)
      throw new UsageError(
        `--sweep-every expects a number of runs (such as 12) or of hours (such as 6h), from 1 to 999999 (got "${sweepEvery}")`,
      );
    const display = pullDisplay(io);
    const report = await pull(
      {
        from: from.url,
        outDir: args.out,
        token: upstreamToken(args.token, io.env),
        projects: args.project,
        full: args.full,
        sweepEvery,
        http: {
          concurrency: integerFlag('concurrency', args.concurrency, 1, 16),
          retries: integerFlag('retries', args.retries, 0, 10),
          maxWaitMs: integerFlag('max-wait', args['max-wait'], 0, 86_400) * 1000,
          maxTotalBytes: sizeFlag('max-bytes', args['max-bytes']),
        },
        onProgress: display.progress,
        onNotice: display.notice,
      },
      defaultPullDeps(),
    );
    display.finish();
    io.summary?.(pullSummary(report, from.url, args.out));
    for (const warning of report.warnings) io.err(`warning: ${warning}\n`);
    if (!report.ok && report.temporary) throw new TemporaryError(report.message);
    if (!report.ok) {
      io.err(`${report.message}\n`);
      for (const error of report.errors) io.err(`${formatContentError(error)}\n`);
      return 1;
    }
    io.out(`${summary(report, from.url, args.out)}\n`);
    return 0;
  },
});

/** --json's summary of a pull: what its line says, in numbers. */
function pullSummary(report: PullReport, from: string, out: string): Record<string, unknown> {
  const figures = {
    from,
    out,
    requests: report.requests,
    durationMs: Math.round(report.durationMs),
  };
  if (!report.ok) return { ...figures, message: report.message, errors: report.errors.length };
  const { files, unchanged, removed, kept, resumed } = report;
  return { ...figures, ...report.counts, files, unchanged, removed, kept, resumed };
}

function summary(report: Extract<PullReport, { ok: true }>, from: string, out: string): string {
  const { projects, components, translations, languages } = report.counts;
  const resumed =
    report.resumed > 0 ? `, ${report.resumed} read back from the interrupted pull` : '';
  const unchanged = report.unchanged > 0 ? `, ${countOf(report.unchanged, 'file')} unchanged` : '';
  const removed = report.removed > 0 ? `, ${countOf(report.removed, 'stale file')} removed` : '';
  const kept =
    report.kept === null
      ? ''
      : `, incrementally${report.swept ? '' : ' between sweeps'}: ${countOf(report.kept, 'component')} kept without reading them again`;
  return (
    `Pulled ${countOf(projects, 'project')}, ${countOf(components, 'component')}, ${countOf(translations, 'translation')} ` +
    `and ${countOf(languages, 'language')} from ${from} into ${out}/ (${countOf(report.files, 'file')} written${unchanged}${removed}; ` +
    `${countOf(report.requests, 'request')}${resumed}${kept}) in ${(report.durationMs / 1000).toFixed(2)} s.`
  );
}

await runIfMain(import.meta, command);
