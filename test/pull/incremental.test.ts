/**
 * Incremental pulls against the real sidecar on loopback (its tree built from
 * a copy of the features fixture), every request counted by a proxy in
 * front of it. Into an earlier pull, a pull with nothing changed upstream
 * makes at most 2P + 10 requests and rewrites no file; one translation
 * deleted upstream costs at most 2P + 10 + (components of that project) + 10;
 * and whatever changed (projects, components, translations, languages added,
 * removed, renamed), the content is byte for byte what a full pull writes.
 */
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultPullDeps, pull, type PullReport } from '../../src/pull/pull.ts';
import { RECORD_FILE } from '../../src/pull/record.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import { startProxy, type Proxy } from '../support/proxy.ts';
import { runCli } from '../support/run-cli.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';
import {
  AUTH,
  call,
  JSON_BODY,
  startUpstreamSidecar,
  type UpstreamSidecar,
  type Workspace,
} from '../sidecar/support.ts';

const running: { sidecar?: UpstreamSidecar; proxy?: Proxy } = {};

afterEach(async () => {
  await running.sidecar?.stop();
  await running.proxy?.close();
  running.sidecar = undefined;
  running.proxy = undefined;
});

/** The sidecar over a copy of the features fixture, and a counting proxy in front of it; `from` is the API through the proxy. */
async function upstream(pageSize: number) {
  const dir = tempDir();
  const space: Workspace = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
  cpSync(join(FIXTURES, 'features/content'), space.content, { recursive: true });
  const args = ['--page-size', String(pageSize)];
  running.sidecar = await startUpstreamSidecar(space, { args });
  running.proxy = await startProxy(running.sidecar.origin);
  const from = `${running.proxy.url}${new URL(running.sidecar.api).pathname}`;
  return {
    space,
    from,
    proxy: running.proxy,
    /** A request to the sidecar itself (not counted). */
    call: (path: string, method = 'GET', body?: unknown) =>
      call(
        `${running.sidecar!.origin}${new URL(running.sidecar!.api).pathname}${path}`,
        method,
        body,
        body === undefined ? AUTH : JSON_BODY,
      ),
    /** Stops the sidecar, lets `edit` change its content, and starts it again behind the same proxy. */
    async restart(edit: (content: string) => void) {
      await running.sidecar!.stop();
      edit(space.content);
      running.sidecar = await startUpstreamSidecar(space, { args });
      running.proxy!.upstream = running.sidecar.origin;
    },
  };
}

async function pullInto(
  from: string,
  out: string,
  full = false,
): Promise<Extract<PullReport, { ok: true }>> {
  const report = await pull({ from, outDir: out, full, http: { retries: 0 } }, defaultPullDeps());
  if (!report.ok)
    throw new Error(`the pull failed: ${report.message}\n${JSON.stringify(report.errors)}`);
  return report;
}

/** The content a pull wrote, its record aside. */
function content(out: string): Map<string, string> {
  const tree = readTree(out);
  tree.delete(RECORD_FILE);
  return tree;
}

/** Each content file's inode and time (the pull's own record aside): a file rewritten, even with the same bytes, gets others. */
function stamps(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    const info = statSync(join(out, path), { bigint: true });
    if (info.isFile() && path !== RECORD_FILE) files.set(path, `${info.ino}:${info.mtimeNs}`);
  }
  return files;
}

/** An incremental pull into `out` writes what a full pull into a new folder writes. */
async function expectSameAsFull(from: string, out: string): Promise<void> {
  const fresh = join(tempDir(), 'full');
  await pullInto(from, fresh, true);
  expect(content(out)).toEqual(content(fresh));
}

const P = 2;
const BETA_COMPONENTS = 2;

describe('an incremental pull from the sidecar', () => {
  it('with nothing changed upstream, makes at most 2P + 10 requests and rewrites no file; the command says so, and --full reads everything', async () => {
    const { from, proxy } = await upstream(50);
    const out = join(tempDir(), 'mirror');
    const first = await pullInto(from, out);
    expect(first.kept).toBeNull();
    const before = stamps(out);
    proxy.log.length = 0;

    const again = await runCli('pull', ['--from', from, '--out', out]);
    expect(again.code).toBe(0);
    const requests = Number(
      /; (\d+) requests, incrementally: 5 components kept without reading them again\)/.exec(
        again.stdout,
      )?.[1],
    );
    expect(again.stdout).toContain('(0 files written, ');
    expect(proxy.log.length).toBe(requests);
    expect(proxy.log.length).toBeLessThanOrEqual(2 * P + 10);
    expect(proxy.log.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
    // The root, the language and project lists, the changes feed, and each project's statistics: nothing of a component.
    expect(proxy.log.filter((r) => r.url.includes('/components/'))).toEqual([]);
    expect(stamps(out)).toEqual(before);

    const full = await pullInto(from, out, true);
    expect(full).toMatchObject({ kept: null, files: 0 });
    expect(full.requests).toBeGreaterThan(4 * 5);
  });

  it('after one translation is deleted upstream, makes at most 2P + 10 + (components of its project) + 10 requests, and writes what a full pull writes', async () => {
    const up = await upstream(50);
    const out = join(tempDir(), 'mirror');
    await pullInto(up.from, out);
    expect((await up.call('translations/beta/docs/he/', 'DELETE')).status).toBe(204);
    up.proxy.log.length = 0;

    const report = await pullInto(up.from, out);
    expect(report.kept).toBe(4);
    expect(up.proxy.log.length).toBeLessThanOrEqual(2 * P + 10 + BETA_COMPONENTS + 10);
    expect(up.proxy.log.map((r) => r.url)).toContain(
      `${new URL(up.from).pathname}components/beta/docs/translations/`,
    );
    expect(readFileSync(join(out, 'projects/beta/components/docs.yaml'), 'utf8')).not.toMatch(
      /\n {2}he:/,
    );
    await expectSameAsFull(up.from, out);
  });

  it('follows projects, components, translations and languages added, removed and changed, through pages of 2', async () => {
    const up = await upstream(2);
    const out = join(tempDir(), 'mirror');
    await pullInto(up.from, out);

    // Through the API: a language added (published without translations), one renamed, a translation deleted.
    expect(
      (
        await up.call('languages/', 'POST', {
          code: 'x_new',
          name: 'New',
          direction: 'ltr',
          plural: { number: 2, formula: 'n != 1' },
        })
      ).status,
    ).toBe(201);
    expect((await up.call('languages/de/', 'PATCH', { name: 'Deutsch' })).status).toBe(200);
    expect((await up.call('translations/alpha/strings/cs/', 'DELETE')).status).toBe(204);
    const first = await pullInto(up.from, out);
    expect(first.kept).toBeGreaterThan(0);
    await expectSameAsFull(up.from, out);

    // By hand, the sidecar started again: a project added, a component removed, a translation added, a setting and a project changed.
    await up.restart((dir) => {
      cpSync(join(dir, 'projects/beta'), join(dir, 'projects/gamma'), { recursive: true });
      for (const file of ['project.yaml', 'components/docs.yaml', 'components/empty.yaml']) {
        const path = join(dir, 'projects/gamma', file);
        writeFileSync(
          path,
          readFileSync(path, 'utf8')
            .replace(/^id: \d+\n/m, '')
            .replace(/\n {4}id: \d+/g, ''),
        );
      }
      rmSync(join(dir, 'projects/beta/components/empty.yaml'));
      const docs = join(dir, 'projects/beta/components/docs.yaml');
      writeFileSync(
        docs,
        readFileSync(docs, 'utf8').replace(
          'translations:\n',
          'translations:\n  fr:\n    translated: 3\n',
        ),
      );
      const alpha = join(dir, 'projects/alpha/project.yaml');
      writeFileSync(alpha, readFileSync(alpha, 'utf8').replace('name: Alpha', 'name: Alpha One'));
      const strings = join(dir, 'projects/alpha/components/strings.yaml');
      writeFileSync(
        strings,
        readFileSync(strings, 'utf8').replace('branch: main', 'branch: stable'),
      );
    });
    const second = await pullInto(up.from, out);
    expect(second.kept).toBeGreaterThan(0);
    expect(second.removed).toBe(1);
    await expectSameAsFull(up.from, out);

    // A project removed.
    await up.restart((dir) => {
      rmSync(join(dir, 'projects/gamma'), { recursive: true });
    });
    await pullInto(up.from, out);
    await expectSameAsFull(up.from, out);
  });

  it('cannot notice a change that moves no statistic, no object it reads and no feed entry; --full reads everything and does', async () => {
    const up = await upstream(50);
    const out = join(tempDir(), 'mirror');
    await pullInto(up.from, out);
    // A translation's revision, and a component's branch in a project whose statistics do not move.
    await up.restart((dir) => {
      const docs = join(dir, 'projects/beta/components/docs.yaml');
      writeFileSync(
        docs,
        readFileSync(docs, 'utf8')
          .replace('  de:\n', '  de:\n    revision: 0123456789abcdef0123456789abcdef01234567\n')
          .replace('file_format: po\n', 'file_format: po\nbranch: stable\n'),
      );
    });
    const incremental = await pullInto(up.from, out);
    expect(incremental.kept).toBe(5);
    const missed = readFileSync(join(out, 'projects/beta/components/docs.yaml'), 'utf8');
    expect(missed).not.toContain('0123456789abcdef');
    expect(missed).not.toContain('branch: stable');

    const full = await pullInto(up.from, out, true);
    expect(full.kept).toBeNull();
    const caught = readFileSync(join(out, 'projects/beta/components/docs.yaml'), 'utf8');
    expect(caught).toContain('revision: 0123456789abcdef');
    expect(caught).toContain('branch: stable');
  });
});

describe('an incremental pull from an instance with a changes feed', () => {
  const RECORDED = join(FIXTURES, 'pull-recorded');
  const recorded = recordedResponses(join(RECORDED, 'responses'));

  it('reads again a component the feed names since the earlier pull (its lock changed: no statistic moved), and only that one', async () => {
    let locked = false;
    const feeds: string[] = [];
    const server = await startScriptedServer(
      async (request: IncomingMessage): Promise<Scripted> => {
        const url = request.url ?? '/';
        if (url.startsWith('/api/changes/')) {
          feeds.push(url);
          const results = locked
            ? [
                {
                  component: 'https://weblate.example.org/api/components/fossapp/glossary/',
                  translation: null,
                  action: 48,
                },
              ]
            : [];
          return {
            status: 200,
            body: JSON.stringify({ count: results.length, next: null, previous: null, results }),
            headers: { Date: 'Mon, 23 Nov 2026 12:00:00 GMT' },
          };
        }
        if (locked && url === '/api/components/fossapp/glossary/lock/')
          return { status: 200, body: '{"locked":true}' };
        const answer = await recorded(request);
        return answer === 'drop'
          ? answer
          : { ...answer, headers: { ...answer.headers, Date: 'Mon, 23 Nov 2026 12:00:00 GMT' } };
      },
    );
    try {
      const from = `${server.url}/api/`;
      const out = join(tempDir(), 'mirror');
      await pullInto(from, out);
      locked = true;
      const before = server.log.length;
      const report = await pullInto(from, out);
      expect(report.kept).toBe(2);
      expect(feeds.at(-1)).toBe('/api/changes/?timestamp_after=2026-11-23T11%3A50%3A00Z');
      const read = server.log.slice(before).map((entry) => entry.url);
      expect(read.filter((url) => url.startsWith('/api/components/'))).toEqual(
        expect.arrayContaining([
          '/api/components/fossapp/glossary/translations/',
          '/api/components/fossapp/glossary/lock/',
        ]),
      );
      expect(
        read.filter(
          (url) =>
            url.startsWith('/api/components/fossapp/android/') ||
            url.startsWith('/api/components/internal-docs/'),
        ),
      ).toEqual([]);
      expect(
        readFileSync(join(out, 'projects/fossapp/components/glossary.yaml'), 'utf8'),
      ).toContain('\nlocked: true\n');
      await expectSameAsFull(from, out);
    } finally {
      await server.close();
    }
  });
});
