/** `npm run mirror`: pull, build and deploy in one process, once, on a schedule, or on Weblate's webhook deliveries. */
import { readFileSync } from 'node:fs';
import { defineCommand, integerFlag, runIfMain, type CommandIO } from '../src/cli/command.ts';
import { HOST_OPTION, hostOption } from '../src/cli/host-option.ts';
import { countOf, formatBytes } from '../src/cli/progress.ts';
import { parsePort, stopSignal } from '../src/cli/serving.ts';
import { SETTINGS_OPTIONS, settingsOverrides } from '../src/cli/settings-options.ts';
import { s3Stores, STORE_OPTIONS, storeEndpoint, storeRegion } from '../src/cli/store-options.ts';
import { UPSTREAM_OPTIONS, upstreamToken } from '../src/cli/upstream-options.ts';
import { parseStateLocation } from '../src/deploy/store-state.ts';
import { parseTarget } from '../src/deploy/target.ts';
import { formatContentError, TemporaryError, UsageError } from '../src/errors.ts';
import { deliveryJudge, readSecret, secretProblem } from '../src/mirror/delivery.ts';
import { listenForDeliveries } from '../src/mirror/listen.ts';
import {
  dropScratch,
  keptScratch,
  refreshMirror,
  type MirrorDeps,
  type MirrorOptions,
  type MirrorOutcome,
  type MirrorStepReport,
  type MirrorTarget,
} from '../src/mirror/mirror.ts';
import { parseInterval, refreshQueue } from '../src/mirror/schedule.ts';
import { normalizeApiUrl } from '../src/pull/pull.ts';
import type { ChangedPlace } from '../src/pull/refresh.ts';

export const command = defineCommand({
  name: 'mirror',
  description:
    'Mirror a live Weblate into a bucket or a served folder: an incremental pull, a build and a deploy in one process. ' +
    "Once, every --every, or on each of Weblate's webhook deliveries (--listen), refreshing only what a delivery names.",
  options: {
    from: {
      type: 'string',
      valueName: 'URL',
      description: 'API root of the instance, such as https://weblate.example.org/api/',
    },
    to: {
      type: 'string',
      valueName: 's3://BUCKET[/PREFIX]|DIR',
      description: 'where to publish: a bucket and prefix, or a folder a web server serves',
    },
    work: {
      type: 'string',
      valueName: 'DIR',
      description:
        'working folder: for a folder target, the pulled content the next run needs (default weblate-mirror); ' +
        "for a bucket, where each run's scratch folder goes (default: the system's temporary folder)",
    },
    full: {
      type: 'boolean',
      description:
        'pull everything (pull --full) instead of only what changed; deliveries still refresh only what they name',
    },
    ...UPSTREAM_OPTIONS,
    ...STORE_OPTIONS,
    state: {
      type: 'string',
      valueName: 's3://BUCKET/KEY',
      description:
        'for a bucket: where the state the next run needs is kept (the pulled content, the deploy record), ' +
        'with a lease beside it; default PREFIX/.weblate-snapshot/state',
    },
    wait: {
      type: 'string',
      valueName: 'SECONDS',
      description: "for a bucket: how long to wait for another run's lease, 0 to 86400",
      default: '0',
    },
    retries: {
      type: 'string',
      valueName: 'N',
      description: 'retries after a network error, a 5xx or a throttled store, 0 to 10',
      default: '4',
    },
    ...SETTINGS_OPTIONS,
    ...HOST_OPTION,
    'allow-base-url': {
      type: 'boolean',
      description:
        'publish a tree whose base or web URL is a loopback, private-range or file: address',
    },
    every: {
      type: 'string',
      valueName: 'INTERVAL',
      description: 'keep running and refresh on this schedule: 30s, 10m, 2h',
    },
    listen: {
      type: 'string',
      valueName: 'PORT',
      description: "keep running and take Weblate's webhook deliveries, POSTed to / on this port",
    },
    bind: {
      type: 'string',
      valueName: 'ADDRESS',
      description: 'with --listen: the address to listen on',
      default: '127.0.0.1',
    },
    'webhook-secret-file': {
      type: 'string',
      valueName: 'FILE',
      description: "with --listen: the file holding the add-on's secret (whsec_…)",
    },
  },
  epilog:
    'Exit codes: 0 done, 1 content or usage errors, 75 what a later run resumes (rate limits, network, a store down), 2 bugs.\n' +
    'Credentials of a bucket come from the usual AWS environment, as for deploy. A bucket keeps what the next run\n' +
    'needs (the pulled content, the deploy record) in its state object, so a run may start with an empty --work.\n\n' +
    'Examples:\n' +
    '  weblate-snapshot mirror --from https://weblate.example.org/api/ --to s3://l10n --base-url https://l10n.example.org\n' +
    '  weblate-snapshot mirror --from https://weblate.example.org/api/ --to /var/www/l10n --every 1h \\\n' +
    '    --listen 8088 --webhook-secret-file /etc/weblate-mirror/secret',
  json: true,
  async run(args, io) {
    if (!args.from || !args.to)
      throw new UsageError('mirror needs --from URL and --to s3://BUCKET[/PREFIX] or DIR');
    const from = normalizeApiUrl(args.from);
    if (!from.ok) throw new UsageError(from.message);
    const target = mirrorTarget({ ...args, to: args.to }, io.env);
    const every = args.every === undefined ? null : parseInterval(args.every);
    const listen = listenOptions(args);
    const retries = integerFlag('retries', args.retries, 0, 10);
    const options: MirrorOptions = {
      from: from.url,
      token: upstreamToken(args.token, io.env),
      projects: args.project,
      full: args.full,
      work: args.work ?? (target.kind === 'folder' ? 'weblate-mirror' : undefined),
      waitMs: integerFlag('wait', args.wait, 0, 86_400) * 1000,
      target,
      settings: settingsOverrides(args),
      host: hostOption(args.host),
      http: { retries },
      deploy: {
        cacheControl: args['cache-control'] === '' ? null : args['cache-control'],
        concurrency: 16,
        retries,
      },
      allowBaseUrl: args['allow-base-url'],
      onNotice: (text) => io.err(`${text}\n`),
    };
    const deps = await mirrorDeps(target, storeRegion(args.region, io.env));
    if (every === null && listen === null) {
      const steps: Record<string, unknown>[] = [];
      const outcome = await refreshMirror(options, deps, undefined, (step) => {
        steps.push(stepSummary(step));
        io.out(`${stepLine(step)}\n`);
      });
      io.summary?.({ steps });
      return finishOnce(outcome, io);
    }
    return keepMirroring(options, deps, { every, listen }, io);
  },
});

/** `--to` as a bucket (with `--endpoint` and `--state`) or a folder. */
function mirrorTarget(
  args: { to: string; endpoint?: string | undefined; state?: string | undefined },
  env: CommandIO['env'],
): MirrorTarget {
  if (!args.to.startsWith('s3://')) {
    for (const flag of ['endpoint', 'state'] as const)
      if (args[flag] !== undefined)
        throw new UsageError(`--${flag} goes with --to s3://BUCKET[/PREFIX]`);
    return { kind: 'folder', dir: args.to };
  }
  const target = parseTarget(args.to, storeEndpoint(args.endpoint, env));
  if (!target.ok) throw new UsageError(target.message);
  const state = parseStateLocation(args.state ?? 'default', target.value);
  if (!state.ok) throw new UsageError(state.message);
  return { kind: 's3', target: target.value, state: state.value };
}

/** `--listen` with its secret and address, or null without it. */
function listenOptions(args: {
  listen?: string | undefined;
  bind: string;
  'webhook-secret-file'?: string | undefined;
}): { port: number; bind: string; secret: string } | null {
  if (args.listen === undefined) {
    if (args['webhook-secret-file'] !== undefined)
      throw new UsageError('--webhook-secret-file goes with --listen PORT');
    return null;
  }
  const port = parsePort(args.listen);
  const file = args['webhook-secret-file'];
  if (file === undefined)
    throw new UsageError(
      "--listen needs --webhook-secret-file FILE (the secret of Weblate's Webhooks add-on)",
    );
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--webhook-secret-file cannot be read: ${(error as Error).message}`);
  }
  const secret = readSecret(text);
  const problem = secret === null ? 'the file is empty' : secretProblem(secret);
  if (problem !== null || secret === null)
    throw new UsageError(
      `--webhook-secret-file expects a secret such as whsec_ and base64 (${file}: ${problem})`,
    );
  return { port, bind: args.bind, secret };
}

async function mirrorDeps(target: MirrorTarget, region: string | null): Promise<MirrorDeps> {
  if (target.kind === 'folder') {
    const none = () => {
      throw new Error('Internal error: a folder has no store');
    };
    return { store: none, stateStore: none };
  }
  const { bucket, endpoint } = target.target;
  const storeOf = await s3Stores(endpoint, region);
  return {
    store: () => storeOf(bucket),
    stateStore: () => storeOf(target.state?.bucket ?? bucket),
  };
}

/** A single run's end: its exit code, through the errors that carry one. */
function finishOnce(outcome: MirrorOutcome, io: CommandIO): number {
  if (outcome.ok) return 0;
  if (outcome.temporary) throw new TemporaryError(outcome.message);
  io.err(`${outcome.message}\n`);
  for (const error of outcome.errors) io.err(`${formatContentError(error)}\n`);
  return 1;
}

/** --every and --listen: refreshes until SIGINT or SIGTERM; a failed refresh is said and the next one tried. */
async function keepMirroring(
  options: MirrorOptions,
  deps: MirrorDeps,
  when: { every: number | null; listen: { port: number; bind: string; secret: string } | null },
  io: CommandIO,
): Promise<number> {
  const failure: { bug: Error | null } = { bug: null };
  // A bucket's scratch folder stays between refreshes while the state is the one this process wrote.
  const keep = keptScratch();
  let failed = () => {};
  const stopped = Promise.race([stopSignal(io), new Promise<void>((done) => (failed = done))]);
  const queue = refreshQueue(async (places) => {
    const named = places ? ` of ${places.map(describePlace).join(', ')}` : '';
    io.out(`Refreshing${named}.\n`);
    try {
      const outcome = await refreshMirror({ ...options, keep }, deps, places, (step) =>
        io.out(`${stepLine(step)}\n`),
      );
      if (!outcome.ok) {
        io.err(`${outcome.message}\n`);
        for (const error of outcome.errors) io.err(`${formatContentError(error)}\n`);
      }
    } catch (error) {
      // A bug stops the mirror: it is thrown once the listener is closed (exit 2).
      failure.bug ??= error instanceof Error ? error : new Error(String(error));
      failed();
    }
  });
  const listener =
    when.listen &&
    (await listenForDeliveries({
      ...when.listen,
      judge: deliveryJudge(when.listen.secret),
      onAccepted: (places) => queue.request(places),
    }));
  if (listener && !listener.ok) throw new UsageError(`--listen: ${listener.message}`);
  const timer = when.every === null ? null : setInterval(() => queue.request(), when.every);
  queue.request();
  if (listener) io.out(`Listening for webhook deliveries at ${listener.listener.url}\n`);
  await stopped;
  if (timer) clearInterval(timer);
  await listener?.listener.close();
  await queue.idle();
  await dropScratch(keep);
  if (failure.bug) throw failure.bug;
  return 0;
}

function describePlace(place: ChangedPlace): string {
  return place.component === undefined ? place.project : `${place.project}/${place.component}`;
}

/** --json's record of a step: what its line says, in numbers. */
function stepSummary(step: MirrorStepReport): Record<string, unknown> {
  if (step.step === 'pull')
    return {
      step: 'pull',
      translations: step.report.counts.translations,
      filesWritten: step.report.files,
      componentsKept: step.report.kept,
      requests: step.report.requests,
      durationMs: step.report.durationMs,
    };
  if (step.step === 'build')
    return {
      step: 'build',
      tree: step.tree,
      mode: step.report.mode,
      filesWritten: step.report.files,
      durationMs: step.report.durationMs,
    };
  return {
    step: 'deploy',
    uploaded: step.report.uploaded,
    bytes: step.report.bytes,
    deleted: step.report.deleted,
    unchangedGroups: step.report.unchangedGroups,
    pngsDrawn: step.report.pngsDrawn ?? 0,
  };
}

function stepLine(step: MirrorStepReport): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  if (step.step === 'pull') {
    const { report } = step;
    const kept = report.kept === null ? '' : `, ${countOf(report.kept, 'component')} kept`;
    return `pull: ${countOf(report.counts.translations, 'translation')}, ${countOf(report.files, 'file')} written${kept}, ${countOf(report.requests, 'request')} in ${seconds(report.durationMs)}`;
  }
  if (step.step === 'build') {
    const { report } = step;
    return `build: ${step.tree}/ ${report.mode === 'fresh' ? 'built' : 'updated in place'}, ${countOf(report.files, 'file')} written in ${seconds(report.durationMs)}`;
  }
  const { report } = step;
  return `deploy: ${countOf(report.uploaded, 'file')} uploaded (${formatBytes(report.bytes)}), ${countOf(report.deleted, 'key')} deleted, ${countOf(report.unchangedGroups, 'group')} unchanged`;
}

await runIfMain(import.meta, command);
