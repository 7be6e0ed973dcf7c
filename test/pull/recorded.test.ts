/**
 * Pulls from answers shaped like a real Weblate 4.14 instance
 * (test/fixtures/pull-recorded), served by a scripted loopback server: the
 * content it writes, the API that content builds into, and the manners of the
 * client (token, 429 with Retry-After, 5xx retried, rate-limit budget, waits
 * too long to take). Waits go through a fake clock: nothing here sleeps.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { memoryTarget } from '../../src/output/target.ts';
import { defaultPullDeps, pull, type PullDeps, type PullOptions } from '../../src/pull/pull.ts';
import { RECORD_FILE } from '../../src/pull/record.ts';
import { parseState, STATE_FILE } from '../../src/pull/state.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import {
  rateLimited,
  recordedResponses,
  startScriptedServer,
  type Scripted,
  type ScriptedServer,
} from '../support/scripted-server.ts';

const RECORDED = join(FIXTURES, 'pull-recorded');
const recorded = recordedResponses(join(RECORDED, 'responses'));

const WARNINGS = [
  'fossapp/android has 2 add-on(s); add-ons are not mirrored (addons is empty).',
  '1 component shows vcs, repo, branch, filemask, push as null, hidden from this caller (internal-docs/handbook). ' +
    'The mirror writes repo and branch empty, vcs as git and the file mask guessed from the translation file names. ' +
    'Pull with --token of a user who may see the repositories to mirror them.',
];

interface Run {
  server: ScriptedServer;
  out: string;
  /** What the pull told the user while it ran (waits). */
  notices: string[];
  report: Awaited<ReturnType<typeof pull>>;
}

/** Pulls from a scripted server into a new folder, with real fetch and a fake clock. */
async function pullFrom(
  respond: (request: IncomingMessage) => Promise<Scripted>,
  options: Partial<PullOptions> = {},
  onSleep?: () => void,
): Promise<Run> {
  const server = await startScriptedServer(respond);
  const out = options.outDir ?? join(tempDir(), 'mirror');
  const notices: string[] = [];
  let clock = Date.parse('2023-04-01T00:00:00Z');
  const deps: PullDeps = {
    ...defaultPullDeps(),
    sleep: async (ms) => {
      clock += ms;
      onSleep?.();
    },
    now: () => clock,
    random: () => 0.5,
  };
  try {
    const report = await pull(
      {
        from: `${server.url}/api/`,
        outDir: out,
        onNotice: (text) => notices.push(text),
        ...options,
      },
      deps,
    );
    return { server, out, notices, report };
  } finally {
    await server.close();
  }
}

/** The pulled folder, with the loopback port of site.yaml's first line read as PORT. */
/** The content a pull wrote (its record aside), the server's port made neutral. */
function pulledTree(run: Run): Map<string, string> {
  const tree = readTree(run.out);
  expect(tree.has(RECORD_FILE)).toBe(run.report.ok);
  tree.delete(RECORD_FILE);
  tree.set('site.yaml', tree.get('site.yaml')!.replace(run.server.url, 'http://127.0.0.1:PORT'));
  return tree;
}

const expected = () => readTree(join(RECORDED, 'expected'));

/** Answers `status` (with headers) the first `times` times a request asks for `path`, then the recording. */
function failing(path: string, times: number, answer: Scripted, inner = recorded) {
  let left = times;
  return async (request: IncomingMessage): Promise<Scripted> => {
    if (request.url === path && left > 0) {
      left--;
      return answer;
    }
    return inner(request);
  };
}

describe('a pull of the recorded Weblate 4.14 instance', () => {
  it('writes the content the instance describes, and warns about what it cannot mirror', async () => {
    const run = await pullFrom(recorded);
    expect(run.report).toMatchObject({ ok: true, warnings: WARNINGS, requests: 22, resumed: 0 });
    expect(run.report.ok && run.report.counts).toEqual({
      projects: 2,
      components: 3,
      translations: 30,
      languages: 24,
    });
    expect(pulledTree(run)).toEqual(expected());
    expect(existsSync(join(run.out, STATE_FILE))).toBe(false);
    expect(
      run.server.log.every((entry) => entry.status === 200 && entry.authorization === undefined),
    ).toBe(true);
  });

  it('builds into the answers it was pulled from, byte for byte, but for the add-ons and the hidden repository fields', async () => {
    const target = memoryTarget();
    const report = await build({ contentDir: join(RECORDED, 'expected') }, { target });
    expect(report.errors).toEqual([]);
    const answers = readTree(join(RECORDED, 'responses'));
    const unrecoverable = new Map([
      ['api/projects/fossapp/components/index.json', { addons: [] as string[] }],
      [
        'api/projects/internal-docs/components/index.json',
        {
          vcs: 'git',
          repo: '',
          branch: '',
          filemask: 'docs/locale/*/LC_MESSAGES/handbook.po',
          push: '',
        },
      ],
    ]);
    for (const [path, text] of answers) {
      const built = target.files.get(path);
      const fallback = unrecoverable.get(path);
      if (!fallback) {
        expect(built, path).toBe(text);
        continue;
      }
      const answer = JSON.parse(text);
      for (const component of answer.results)
        if (component.slug !== 'glossary') Object.assign(component, fallback);
      expect(JSON.parse(built!), path).toEqual(answer);
    }
    expect(answers.size).toBe(22);
  });

  it('sends the token on every request', async () => {
    const run = await pullFrom(recorded, { token: 'wlu_0123456789' });
    expect(run.report.ok).toBe(true);
    expect(new Set(run.server.log.map((entry) => entry.authorization))).toEqual(
      new Set(['Token wlu_0123456789']),
    );
  });

  it('waits as long as Retry-After asks after a 429, then completes', async () => {
    const throttled: Scripted = {
      status: 429,
      body: '{"detail":"Request was throttled. Expected available in 1 second."}',
      headers: { 'Retry-After': '1' },
    };
    const run = await pullFrom(failing('/api/projects/fossapp/components/', 1, throttled));
    expect(run.report.ok).toBe(true);
    expect(
      run.server.log
        .filter((entry) => entry.url === '/api/projects/fossapp/components/')
        .map((entry) => entry.status),
    ).toEqual([429, 200]);
    expect(run.notices).toEqual([
      `Waiting 1 s: throttled (HTTP 429, Retry-After: 1): ${run.server.url}/api/projects/fossapp/components/`,
    ]);
    expect(pulledTree(run)).toEqual(expected());
  });

  it('retries a 500 after a backoff, then completes', async () => {
    const path = '/api/components/fossapp/android/translations/?page=2';
    const run = await pullFrom(
      failing(path, 1, {
        status: 500,
        body: '<h1>Server Error (500)</h1>',
        headers: { 'Content-Type': 'text/html' },
      }),
    );
    expect(run.report.ok).toBe(true);
    expect(
      run.server.log.filter((entry) => entry.url === path).map((entry) => entry.status),
    ).toEqual([500, 200]);
    expect(run.notices).toEqual([`Waiting 1 s: retrying after HTTP 500: ${run.server.url}${path}`]);
    expect(pulledTree(run)).toEqual(expected());
  });

  it('pauses for the reset when the X-RateLimit budget runs out, and never earns a 429', async () => {
    const limiter = rateLimited(6, 30, recorded);
    const run = await pullFrom(limiter.respond, {}, limiter.reset);
    expect(run.report.ok).toBe(true);
    expect(run.server.log.filter((entry) => entry.status !== 200)).toEqual([]);
    expect(run.notices.length).toBeGreaterThanOrEqual(3);
    expect(
      run.notices.every((text) =>
        text.startsWith('Waiting 30 s: rate limit used up (X-RateLimit-Remaining: 0)'),
      ),
    ).toBe(true);
    expect(pulledTree(run)).toEqual(expected());
  });

  it('stops when the server asks for a longer wait than allowed, keeping what it fetched for a re-run', async () => {
    const throttled: Scripted = {
      status: 429,
      body: '{"detail":"Request was throttled. Expected available in 86400 seconds."}',
      headers: { 'Retry-After': '86400' },
    };
    const run = await pullFrom(failing('/api/projects/internal-docs/components/', 1, throttled), {
      http: { maxWaitMs: 600_000 },
    });
    expect(run.report.ok).toBe(false);
    expect(!run.report.ok && run.report.message).toBe(
      `${run.server.url}/api/projects/internal-docs/components/ is throttled (HTTP 429) for 86400 s, longer than the 600 s allowed by --max-wait.\n` +
        `What was fetched is kept in ${run.out}/${STATE_FILE}: run the same command again (later, if rate limited) to resume.`,
    );
    const kept = parseState(readFileSync(join(run.out, STATE_FILE), 'utf8'));
    expect(kept.from).toBe(`${run.server.url}/api/`);
    expect(kept.answers.has(`${run.server.url}/api/`)).toBe(true);
    expect(existsSync(join(run.out, 'site.yaml'))).toBe(false);
  });

  it("reads a translation's own statistics when its component's statistics list leaves it out", async () => {
    const list = JSON.parse(
      readFileSync(
        join(RECORDED, 'responses/api/components/fossapp/glossary/statistics/index.json'),
        'utf8',
      ),
    );
    const german = list.results.find((entry: { code: string }) => entry.code === 'de');
    const shortened = {
      ...list,
      count: list.count - 1,
      results: list.results.filter((entry: unknown) => entry !== german),
    };
    const run = await pullFrom(async (request) => {
      if (request.url === '/api/components/fossapp/glossary/statistics/')
        return { status: 200, body: JSON.stringify(shortened) };
      if (request.url === '/api/translations/fossapp/glossary/de/statistics/')
        return { status: 200, body: JSON.stringify(german) };
      return recorded(request);
    });
    expect(run.report.ok).toBe(true);
    expect(run.server.log.map((entry) => entry.url)).toContain(
      '/api/translations/fossapp/glossary/de/statistics/',
    );
    expect(pulledTree(run)).toEqual(expected());
  });

  it('updates an earlier pull in place: a pull of one project removes the files of the other', async () => {
    const first = await pullFrom(recorded);
    const second = await pullFrom(recorded, { outDir: first.out, projects: ['fossapp'] });
    expect(second.report).toMatchObject({ ok: true, removed: 3 });
    expect([...readTree(first.out).keys()]).toEqual([
      RECORD_FILE,
      'languages/cs.yaml',
      'languages/nb_NO.yaml',
      'projects/fossapp/components/android.yaml',
      'projects/fossapp/components/glossary.yaml',
      'projects/fossapp/project.yaml',
      'site.yaml',
    ]);
  });

  it('names the projects there when asked for one that is not', async () => {
    const run = await pullFrom(recorded, { projects: ['fossapp', 'nope'] });
    expect(!run.report.ok && run.report.message.split('\n')[0]).toBe(
      `${run.server.url}/api/ has no project "nope" (projects there: fossapp, internal-docs).`,
    );
  });
});
