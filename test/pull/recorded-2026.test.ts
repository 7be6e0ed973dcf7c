/**
 * Pulls from answers shaped like the live pages of current Weblate instances
 * (test/fixtures/pull-recorded-current), served by a
 * scripted loopback server: the content it writes in the 2026.8 flavour, the
 * API that content builds into (the recorded answers, but for what a mirror
 * cannot recover), and an instance whose answers mix 4.x's shapes with
 * today's, which the pull refuses before it writes anything.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { STATISTICS_ORDER } from '../../src/model/statistics.ts';
import { memoryTarget } from '../../src/output/target.ts';
import { defaultPullDeps, pull } from '../../src/pull/pull.ts';
import { RECORD_FILE } from '../../src/pull/record.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';

const RECORDED = join(FIXTURES, 'pull-recorded-current');
const recorded = recordedResponses(join(RECORDED, 'responses'));

const WARNINGS = [
  'wallet/gui has 1 add-on(s); add-ons are not mirrored (addons is empty).',
  'framasoft is in workspace 3f1c2a9e-5b7d-4e21-9c0a-6d8e2f4b1a77; a mirror has no workspaces (workspace is null).',
  '2 components show vcs, repo, git_export, branch, push_branch, filemask, push, repoweb, vcs_params, screenshot_filemask as null, ' +
    'hidden from this caller (wallet/gui, wallet/site). The mirror writes repo and branch empty, vcs as git and the file mask guessed ' +
    'from the translation file names. Pull with --token of a user who may see the repositories to mirror them.',
];

/** Pulls from a scripted server into a new folder; the content it wrote (record aside), the server's port made neutral. */
async function pullFrom(respond: (request: IncomingMessage) => Promise<Scripted>) {
  const server = await startScriptedServer(respond);
  const out = join(tempDir(), 'mirror');
  try {
    const report = await pull({ from: `${server.url}/api/`, outDir: out }, defaultPullDeps());
    const tree = existsSync(out) ? readTree(out) : new Map<string, string>();
    tree.delete(RECORD_FILE);
    if (tree.has('site.yaml'))
      tree.set('site.yaml', tree.get('site.yaml')!.replace(server.url, 'http://127.0.0.1:PORT'));
    return { report, tree, out, log: server.log, url: server.url };
  } finally {
    await server.close();
  }
}

describe('a pull of the recorded current Weblate instance', () => {
  it('places it in the 2026.8 flavour and writes the content it describes, warning about what it cannot mirror', async () => {
    const run = await pullFrom(recorded);
    expect(run.report).toMatchObject({ ok: true, warnings: WARNINGS, requests: 31, resumed: 0 });
    expect(run.report.ok && run.report.counts).toEqual({
      projects: 3,
      components: 6,
      translations: 25,
      languages: 14,
    });
    expect(run.tree).toEqual(readTree(join(RECORDED, 'expected')));
    // No lock/ requests: today's component objects carry their lock. A component in a category is read at its escaped path.
    expect(run.log.filter((entry) => entry.url.endsWith('/lock/'))).toEqual([]);
    expect(run.log.map((entry) => entry.url)).toContain(
      '/api/components/grass/desktop%252Fwxpy/translations/',
    );
    expect(run.log.every((entry) => entry.status === 200)).toBe(true);
  });

  it('builds into the answers it was pulled from, byte for byte, but for the hidden repository fields, the add-on and the workspace', async () => {
    const target = memoryTarget();
    const report = await build({ contentDir: join(RECORDED, 'expected') }, { target });
    expect(report.errors).toEqual([]);
    const answers = readTree(join(RECORDED, 'responses'));
    const unrecoverable = new Map<string, (body: { results: Record<string, unknown>[] }) => void>([
      ['api/projects/index.json', (body) => body.results.forEach((p) => (p.workspace = null))],
      [
        'api/projects/wallet/components/index.json',
        (body) => body.results.forEach((c) => Object.assign(c, mirroredWallet(c))),
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
      fallback(answer);
      expect(JSON.parse(built!), path).toEqual(answer);
    }
    expect(answers.size).toBe(30);
  });

  it('refuses an instance whose root and languages are of different Weblates, and writes nothing', async () => {
    const run = await pullFrom(async (request) => {
      const answer = await recorded(request);
      if (request.url !== '/api/' || answer === 'drop') return answer;
      const root = JSON.parse(answer.body);
      delete root.categories;
      return { ...answer, body: JSON.stringify(root) };
    });
    expect(run.report.ok).toBe(false);
    expect(!run.report.ok && run.report.message).toBe(
      `${run.url}/api/ serves an API this pull cannot mirror: the API root lists no categories, as in Weblate 4.x; ` +
        "but a language has an id, a project links its categories, as in Weblate 5.x and later. A mirror speaks Weblate 4.x's API or today's " +
        '(Weblate 5.0 and later), and the bodies of this instance are not all of one of them. Nothing was written.',
    );
    expect(run.tree.size).toBe(0);
  });

  it("takes 4.x's statistics beside today's languages (Weblate 5.0 and 5.1) for today's Weblate", async () => {
    const run = await pullFrom(async (request) => {
      const answer = await recorded(request);
      if (
        !/\/statistics\/$/.test(request.url ?? '') ||
        !request.url?.startsWith('/api/components/') ||
        answer === 'drop'
      )
        return answer;
      const body = JSON.parse(answer.body);
      body.results = body.results.map(olderStatistics);
      return { ...answer, body: JSON.stringify(body) };
    });
    expect(run.report.ok ? '' : run.report.message).toBe('');
    expect(run.tree.get('site.yaml')).toContain('\nweblate_version: "2026.8"\n');
  });
});

/** What the mirror shows of a `wallet` component whose repository fields were hidden: defaults, the guessed file mask, no add-ons. */
function mirroredWallet(c: Record<string, unknown>): Record<string, unknown> {
  const filemask = c.slug === 'gui' ? 'translations/wallet_*.ts' : 'site/_i18n/*.yml';
  const empty = {
    repo: '',
    branch: '',
    screenshot_filemask: '',
    push: '',
    git_export: '',
    push_branch: '',
    repoweb: '',
  };
  return { ...empty, vcs: 'git', vcs_params: {}, filemask, linked_component: null, addons: [] };
}

/** A statistics item in the layout of Weblate 4.x and 5.0–5.1: 21 counters, `total_chars` 11th. */
function olderStatistics(item: Record<string, unknown>): Record<string, unknown> {
  const keys = [...STATISTICS_ORDER['4'], 'code', 'name', 'url', 'translate_url'];
  return Object.fromEntries(keys.map((key) => [key, item[key]]));
}
