/**
 * The webhook-to-target latency (issue 23): `weblate-snapshot mirror --listen`
 * into the bucket, starting from the state the refresh left there, one counter changed
 * upstream, then a delivery signed as Weblate's Webhooks add-on signs it,
 * naming the changed component; timed from the POST until the component's
 * statistics list in the bucket has other bytes (its ETag changed).
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_BACKOFF, withRetries, type RetryPolicy } from '../src/deploy/retry.ts';
import { s3Store } from '../src/deploy/s3.ts';
import { userEnv } from './package.ts';
import { ROOT, toolBin } from './processes.ts';
import { LOCAL_S3_KEYS } from './s3-server.ts';

export interface WebhookFigures {
  /** From the delivery's POST until the changed object's new bytes are in the bucket. */
  ms: number;
  /** The answer to the delivery. */
  status: number;
}

interface WebhookOptions {
  upstream: string;
  s3: string;
  /** Where the mirror's scratch folder and the webhook secret go (its state is in the bucket). */
  work: string;
  /** Build flags the refresh's builds took (a flag left out would rebuild the whole tree). */
  buildFlags: string[];
  /** The changed component, and a change made to it upstream. */
  project: string;
  component: string;
  changeUpstream: () => Promise<void>;
  log: (line: string) => void;
}

export async function measureWebhook(options: WebhookOptions): Promise<WebhookFigures> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const secretFile = join(options.work, 'webhook-secret');
  writeFileSync(secretFile, `${secret}\n`);
  const mirror = startMirror(options, secretFile, await toolBin());
  try {
    const url = (await mirror.waitFor(/deliveries at (http:\/\/\S+\/)\n/))[1]!;
    await mirror.waitFor(/^deploy: .*\n/m);
    options.log('Webhook latency: the mirror listens and is up to date; one counter changed …');
    await options.changeUpstream();
    const key = `mirror/api/components/${options.project}/${options.component}/statistics/index.json`;
    const store = localStore(options.s3);
    try {
      const before = await etagOf(store, key);
      const body = JSON.stringify({
        action: 'Translation changed',
        project: options.project,
        component: options.component,
      });
      const id = randomUUID();
      const headers = sign(secret, id, body);
      const started = performance.now();
      const answer = await fetch(url, { method: 'POST', body, headers });
      await answer.text();
      for (let tries = 0; tries < MAX_POLLS; tries++) {
        if ((await etagOf(store, key)) !== before)
          return { ms: performance.now() - started, status: answer.status };
        await new Promise((done) => setTimeout(done, POLL_MS));
      }
      throw new Error(
        `${key} did not change within ${(MAX_POLLS * POLL_MS) / 1000} s:\n${mirror.text()}`,
      );
    } finally {
      store.close();
    }
  } finally {
    await mirror.stop();
  }
}

// --- internal ---

const POLL_MS = 20;
const MAX_POLLS = 15_000;

function sign(secret: string, id: string, body: string): Record<string, string> {
  const now = new Date();
  return {
    'Content-Type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': `${now.getTime() / 1000}`,
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}

/** A store over the local server: its keys set in this process's environment, where the SDK reads them. */
function localStore(endpoint: string): ReturnType<typeof s3Store> {
  const before = { ...process.env };
  Object.assign(process.env, LOCAL_S3_KEYS, {
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  const store = s3Store({ bucket: 'bench', endpoint, region: 'us-east-1' });
  return {
    ...store,
    close() {
      store.close();
      for (const name of Object.keys(LOCAL_S3_KEYS)) process.env[name] = before[name];
    },
  };
}

/** A store under a mirror's load may answer a listing 500 now and then: tried again, as the tool does. */
const LIST_POLICY: RetryPolicy = {
  retries: 5,
  ...DEFAULT_BACKOFF,
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
  random: Math.random,
};

async function etagOf(store: ReturnType<typeof s3Store>, key: string): Promise<string | null> {
  const { objects } = await withRetries(() => store.list(key, null), LIST_POLICY);
  return objects.find((object) => object.key === key)?.etag ?? null;
}

/** The mirror of the tool the run times (`bin`), as a service runs it; its output, waited on line by line. */
function startMirror(options: WebhookOptions, secretFile: string, bin: string) {
  const args = [
    ...['mirror', '--from', options.upstream, '--to', 's3://bench/mirror'],
    ...['--endpoint', options.s3, '--work', options.work, '--allow-base-url'],
    ...['--listen', '0', '--webhook-secret-file', secretFile, ...options.buildFlags],
  ];
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: ROOT,
    env: { ...userEnv(), ...LOCAL_S3_KEYS, AWS_EC2_METADATA_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let seen = 0;
  const changed = new Set<() => void>();
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of [...changed]) listener();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    text: () => output,
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output.slice(seen));
          if (match) {
            changed.delete(check);
            seen += match.index + match[0].length;
            resolve(match);
          } else if (child.exitCode !== null) reject(new Error(`the mirror exited:\n${output}`));
        };
        changed.add(check);
        child.once('exit', check);
        check();
      }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
