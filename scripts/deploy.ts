/** `npm run deploy`: publishes a built tree to S3 or an S3-compatible store, uploading only what changed since the last deploy there. */
import { defineCommand, integerFlag, runIfMain, type CommandIO } from '../src/cli/command.ts';
import { deployDisplay } from '../src/cli/deploy-progress.ts';
import { contentFolder, outFolder } from '../src/cli/folders.ts';
import { SETTINGS_OPTIONS, settingsOverrides } from '../src/cli/settings-options.ts';
import { s3Stores, STORE_OPTIONS, storeEndpoint, storeRegion } from '../src/cli/store-options.ts';
import { countOf, formatBytes } from '../src/cli/progress.ts';
import { deploy, type DeployReport } from '../src/deploy/deploy.ts';
import { publishContent } from '../src/deploy/publish.ts';
import { describeTarget, keyOf, parseTarget, type DeployTarget } from '../src/deploy/target.ts';
import { sleepUnlessAborted } from '../src/pull/waits.ts';
import {
  deployWithState,
  parseStateLocation,
  type StateDeployReport,
} from '../src/deploy/store-state.ts';
import {
  formatContentErrors,
  formatContentWarnings,
  TemporaryError,
  UsageError,
} from '../src/errors.ts';

export const command = defineCommand({
  name: 'deploy',
  description:
    'Publish a built tree to S3 or an S3-compatible store: every file under its path as key, with its Content-Type; ' +
    'later deploys to the same place upload only what changed since (from a record kept beside the manifest, without listing the bucket) ' +
    'and then delete the keys that left the tree.',
  options: {
    out: {
      type: 'string',
      valueName: 'DIR',
      description: 'the built tree to publish',
      default: 'dist',
    },
    content: {
      type: 'string',
      valueName: 'DIR',
      description:
        'publish this content folder instead of a built tree: only the groups that changed are rendered, ' +
        'in memory, and uploaded (keeps its state in the store: --state, default "default")',
    },
    ...SETTINGS_OPTIONS,
    to: {
      type: 'string',
      valueName: 's3://BUCKET[/PREFIX]',
      description: 'where to publish: a bucket, and a prefix for the keys',
    },
    ...STORE_OPTIONS,
    concurrency: {
      type: 'string',
      valueName: 'N',
      description: 'uploads in flight at once, 1 to 64',
      default: '16',
    },
    retries: {
      type: 'string',
      valueName: 'N',
      description: 'tries after a failed request (network, 5xx, throttled), 0 to 10',
      default: '5',
    },
    verify: {
      type: 'boolean',
      description:
        'list the keys under the prefix and compare every file with them (uploads what differs)',
    },
    state: {
      type: 'string',
      valueName: 's3://BUCKET/KEY',
      description:
        'keep the deploy record in the store, for runners that keep nothing: read at the start, written back at the end, ' +
        'one run at a time (a lease beside it); "default" for PREFIX/.weblate-snapshot/state',
    },
    wait: {
      type: 'string',
      valueName: 'SECONDS',
      description: "with --state: how long to wait for another run's lease, 0 to 86400",
      default: '0',
    },
    'dry-run': {
      type: 'boolean',
      description: 'print what would be uploaded and deleted, and send nothing',
    },
    'allow-base-url': {
      type: 'boolean',
      description:
        'deploy a tree whose base or web URL is a loopback, private-range or file: address, or whose base URL differs from the last deploy there',
    },
  },
  epilog:
    'Credentials come from the usual AWS environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE) and config files.\n' +
    'Keys are PREFIX/<path in the tree>; only keys under the prefix that this tree had are ever written or deleted.\n' +
    'An interrupted deploy is resumed by the same command.\n\n' +
    'Examples:\n  npm run deploy -- --out dist --to s3://l10n-snapshot\n' +
    '  npm run deploy -- --out dist --to s3://snapshots/weblate --endpoint https://minio.example.org:9000',
  json: true,
  async run(args, io) {
    if (!args.to) throw new UsageError('deploy needs --to s3://BUCKET[/PREFIX]');
    const target = parseTarget(args.to, storeEndpoint(args.endpoint, io.env));
    if (!target.ok) throw new UsageError(target.message);
    if (args.content !== undefined) return publish(args, target.value, io);
    const settingsGiven = Object.keys(SETTINGS_OPTIONS).find(
      (flag) => args[flag as keyof typeof SETTINGS_OPTIONS] !== undefined,
    );
    if (settingsGiven)
      throw new UsageError(
        `--${settingsGiven} goes with --content; a built tree is published with the settings it was built with`,
      );
    const out = outFolder(args.out);
    const state = args.state === undefined ? null : parseStateLocation(args.state, target.value);
    if (state && !state.ok) throw new UsageError(state.message);
    const waitMs = integerFlag('wait', args.wait, 0, 86_400) * 1000;
    const storeOf = await s3Stores(target.value.endpoint, storeRegion(args.region, io.env));
    const display = deployDisplay(io);
    const options = (signal: AbortSignal) => ({
      outDir: out,
      target: target.value,
      cacheControl: args['cache-control'] === '' ? null : args['cache-control'],
      concurrency: integerFlag('concurrency', args.concurrency, 1, 64),
      retries: integerFlag('retries', args.retries, 0, 10),
      verify: args.verify,
      dryRun: args['dry-run'],
      allowBaseUrl: args['allow-base-url'],
      signal,
      onProgress: display.progress,
      onNotice: display.notice,
    });
    const deps = {
      store: () => storeOf(target.value.bucket),
      sleep: sleepUnlessAborted,
      random: Math.random,
    };
    const report: StateDeployReport = await untilInterrupted((signal) =>
      state
        ? deployWithState(
            { ...options(signal), state: state.value, waitMs },
            { ...deps, stateStore: () => storeOf(state.value.bucket), now: Date.now },
          )
        : deploy(options(signal), deps),
    );
    display.finish();
    io.summary?.(deploySummary(report, target.value, out, args['dry-run']));
    if (args['dry-run']) {
      for (const path of report.uploads) io.out(`upload ${keyOf(target.value, path)}\n`);
      for (const path of report.deletes) io.out(`delete ${keyOf(target.value, path)}\n`);
    }
    if (!report.ok) {
      if (report.temporary) throw new TemporaryError(report.message);
      io.err(`${report.message}\n`);
      // EX_TEMPFAIL: nothing went wrong, another run was at work.
      return report.busy ? 75 : 1;
    }
    io.out(`${summary(report, target.value, out, args['dry-run'], args.verify)}\n`);
    return 0;
  },
});

/** --json's summary of a deploy: what its line says, in numbers. */
function deploySummary(
  report: DeployReport,
  target: DeployTarget,
  out: string,
  dryRun: boolean,
): Record<string, unknown> {
  const { uploaded, bytes, deleted, unchangedGroups, verified, foreign } = report;
  const planned = dryRun ? { uploads: report.uploads.length, deletes: report.deletes.length } : {};
  const message = report.ok ? {} : { message: report.message };
  const to = describeTarget(target);
  return {
    out,
    to,
    dryRun,
    uploaded,
    bytes,
    deleted,
    unchangedGroups,
    verified,
    foreign,
    ...planned,
    ...message,
  };
}

function summary(
  report: Extract<DeployReport, { ok: true }>,
  target: DeployTarget,
  out: string,
  dryRun: boolean,
  verify: boolean,
): string {
  const where = describeTarget(target);
  const foreign =
    report.foreign > 0
      ? `; ${countOf(report.foreign, 'key')} under the prefix that this tree never had, left alone`
      : '';
  if (verify && !dryRun) {
    return (
      `Verified ${out}/ against ${where}: ${countOf(report.verified, 'file')} compared, ${countOf(report.uploaded, 'file')} uploaded ` +
      `(${formatBytes(report.bytes)}), ${countOf(report.deleted, 'key')} deleted${foreign}.`
    );
  }
  if (dryRun) {
    return `Would upload ${countOf(report.uploads.length, 'file')} and delete ${countOf(report.deletes.length, 'key')} at ${where} (${countOf(report.unchangedGroups, 'group')} unchanged)${foreign}.`;
  }
  return (
    `Deployed ${out}/ to ${where}: ${countOf(report.uploaded, 'file')} uploaded (${formatBytes(report.bytes)}), ` +
    `${countOf(report.deleted, 'key')} deleted, ${countOf(report.unchangedGroups, 'group')} unchanged${foreign}.`
  );
}

/** The flags a publish of content reads. */
type PublishArgs = Parameters<typeof settingsOverrides>[0] & {
  content?: string | undefined;
  state?: string | undefined;
  wait: string;
  region?: string | undefined;
  'cache-control': string;
  concurrency: string;
  retries: string;
  verify: boolean;
  'allow-base-url': boolean;
  'dry-run': boolean;
};

/** --content: the content rendered and published straight to the target, with its state in the store. */
async function publish(args: PublishArgs, target: DeployTarget, io: CommandIO): Promise<number> {
  if (args['dry-run']) throw new UsageError('--dry-run goes with --out, not --content');
  const content = contentFolder(args.content!);
  const settings = settingsOverrides(args);
  const state = parseStateLocation(args.state ?? 'default', target);
  if (!state.ok) throw new UsageError(state.message);
  const waitMs = integerFlag('wait', args.wait, 0, 86_400) * 1000;
  const storeOf = await s3Stores(target.endpoint, storeRegion(args.region, io.env));
  const report = await untilInterrupted((signal) =>
    publishContent(
      {
        contentDir: content,
        settings,
        target,
        state: state.value,
        waitMs,
        cacheControl: args['cache-control'] === '' ? null : args['cache-control'],
        concurrency: integerFlag('concurrency', args.concurrency, 1, 64),
        retries: integerFlag('retries', args.retries, 0, 10),
        verify: args.verify,
        allowBaseUrl: args['allow-base-url'],
        signal,
        onNotice: (text) => io.err(`${text}\n`),
      },
      {
        store: () => storeOf(target.bucket),
        stateStore: () => storeOf(state.value.bucket),
        sleep: sleepUnlessAborted,
        random: Math.random,
        now: Date.now,
      },
    ),
  );
  if (report.errors) {
    io.err(`${formatContentErrors(report.errors)}\n`);
    return 1;
  }
  if (report.warnings.length > 0) io.err(`${formatContentWarnings(report.warnings)}\n`);
  io.summary?.(publishSummary(report, target, content));
  if (!report.ok) {
    io.err(`${report.message}\n`);
    return report.busy ? 75 : 1;
  }
  const read =
    report.parsed === 'all'
      ? ''
      : `; ${countOf(report.parsed, 'content file')} read, the rest vouched for by the build cache in the state`;
  io.out(
    `Published ${content}/ (${countOf(report.translations, 'translation')}${read}) to ${describeTarget(target)}: ` +
      `${countOf(report.uploaded, 'file')} uploaded (${formatBytes(report.bytes)}), ` +
      `${countOf(report.deleted, 'key')} deleted, ${countOf(report.unchangedGroups, 'group')} unchanged.\n`,
  );
  return 0;
}

/** --json's summary of a publish of content: what its line says, in numbers. */
function publishSummary(
  report: Exclude<Awaited<ReturnType<typeof publishContent>>, { errors: unknown[] }>,
  target: DeployTarget,
  content: string,
): Record<string, unknown> {
  const { translations, parsed, uploaded, bytes, deleted, unchangedGroups } = report;
  const message = report.ok ? {} : { message: report.message };
  const pngsDrawn = report.pngsDrawn ?? 0;
  const to = describeTarget(target);
  return {
    content,
    to,
    translations,
    parsed,
    uploaded,
    bytes,
    deleted,
    unchangedGroups,
    pngsDrawn,
    ...message,
  };
}

/** Runs `work` with a signal that SIGINT or SIGTERM aborts, the handlers removed after. */
async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    return await work(stop.signal);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

await runIfMain(import.meta, command);
