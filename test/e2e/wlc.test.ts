/**
 * Issue 16, item 7: the current Weblate client reads the 2026.8 flavour.
 * wlc 2.1.1 (test/vendor/wlc-2, unmodified, GPL-3.0-or-later; see its README)
 * runs with Debian's /usr/bin/python3 against the preview of the fixture
 * "current", both real processes on loopback: it lists projects, components,
 * translations and languages, shows a translation and prints statistics of a
 * project, a component and a translation, as JSON that is checked against
 * the fixture. A component inside categories is named as its API path names
 * it (`docs/guides%252Fmanual`): wlc has no category paths of its own. Its
 * dependencies come with Debian's `wlc` package (.ci/run installs it); without
 * them the tests fail under CI and are skipped, loudly, elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { runProgram, type ScriptResult } from '../support/run-script.ts';
import { CURRENT_FIXTURE } from '../unit/hosts/tree.ts';
import { buildFor, freePort, startServer, type BuiltFixture, type Started } from './servers.ts';

const WLC = join(ROOT, 'test/vendor/wlc-2/wlc-head');
const ready =
  spawnSync('/usr/bin/python3', ['-c', 'import requests, dateutil, xdg, argcomplete']).status === 0;

if (!ready && !process.env.CI) {
  console.warn(
    "\n*** /usr/bin/python3 or wlc's modules are missing: the wlc tests are SKIPPED. Install them with apt-get install wlc. ***\n",
  );
}

it.skipIf(!ready && !process.env.CI)(
  "finds Debian's python3 with wlc's modules (under CI, .ci/run installs the wlc package)",
  () => {
    expect(ready, '/usr/bin/python3 with requests, dateutil, xdg and argcomplete').toBe(true);
  },
);

describe.runIf(ready)('wlc 2.1.1 reading the preview of the 2026.8 flavour', () => {
  const work = tempDir('wsnap-wlc-');
  const out = join(work, 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;

  /** Runs wlc with JSON output and no configuration of the user's. */
  const runWlc = (...args: string[]): Promise<ScriptResult> => {
    const api = `${built.origin}${built.tree.base}/api/`;
    return runProgram(WLC, ['--format', 'json', '--url', api, ...args], {
      env: { HOME: work, XDG_CONFIG_HOME: join(work, 'config') },
    });
  };
  /** wlc's parsed output, once it exits 0. */
  const wlc = async (...args: string[]): Promise<any> => {
    const result = await runWlc(...args);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };

  beforeAll(async () => {
    const port = await freePort();
    built = await buildFor(CURRENT_FIXTURE[1], port, out);
    const serve = [...scriptArgs('serve'), '--out', out, '--port', String(port)];
    server = await startServer(process.execPath, serve, `${built.origin}/`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists projects, components (through every page), translations and languages', async () => {
    expect((await wlc('list-projects')).map((p: any) => p.slug)).toEqual(['docs', 'app']);
    const components = await wlc('list-components');
    expect(components.map((c: any) => c.slug)).toEqual([
      'manual',
      'reference',
      'glossary',
      'android',
      'ios',
    ]);
    // wlc follows a component's category link and reads the category (its Category model).
    expect(components[0].category).toMatchObject({ id: 5, slug: 'guides', name: 'Guides' });
    expect(components[1].category).toMatchObject({
      id: 7,
      slug: 'internals',
      category: { id: 6, slug: 'api' },
    });
    expect((await wlc('list-translations')).length).toBe(12);
    const languages = await wlc('list-languages');
    expect(languages.map((l: any) => l.code)).toEqual(['ar', 'cs', 'de', 'en', 'tlh_XX', 'uk']);
    expect(languages[1]).toMatchObject({ id: 141, code: 'cs', plural: { type: 22 } });
  });

  it('shows a translation of a component inside categories', async () => {
    const translation = await wlc('show', 'docs/guides%252Fmanual/cs');
    expect(translation).toMatchObject({
      id: 200,
      language_code: 'cs',
      translated: 30,
      translated_percent: 75.0,
      last_author: 'Jana Nováková',
    });
    expect(translation.share_url).toBe('https://weblate.example.org/engage/docs/-/cs/');
    expect(translation.last_change).toBe('2026-08-03T09:15:42.123456+00:00');
  });

  it('prints the statistics of a project, a component and a translation', async () => {
    expect(await wlc('stats', 'docs')).toMatchObject({
      name: 'Documentation',
      total: 132,
      translated: 120,
      translated_percent: 90.9,
    });
    const component = await wlc('stats', 'docs/guides%252Fmanual');
    expect(component.map((s: any) => [s.code, s.translated_percent])).toEqual([
      ['cs', 75.0],
      ['uk', 100.0],
      ['en', 100.0],
    ]);
    expect(await wlc('stats', 'app/android/cs')).toMatchObject({
      code: 'cs',
      total: 10,
      translated_percent: 100.0,
      approved_chars: 0,
    });
  });

  it('reads the current error body: a path the snapshot does not hold is "not found"', async () => {
    const failed = await runWlc('show', 'docs/nope');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Object not found on the server');
  });
});
