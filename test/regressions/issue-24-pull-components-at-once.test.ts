/**
 * Issue 24: a full pull asked for every component's reads at once, so all of
 * them waited in its queue together, and each component whose answers came
 * late held its translations until then: at 100,000 translations the walk
 * held hundreds of MiB. The walk now reads a bounded number of components at
 * once (32). Here the upstream fails each component's links once (5xx), so
 * that no component is complete before a retry, and holds the first retry
 * answered for a while: the components the pull starts meanwhile are counted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { useSyntheticUpstream } from '../support/synthetic-upstream.ts';

const SCALE = { projects: 3, components: 40, languages: 2 };
const LINKS = /^\/api\/components\/[^/]+\/[^/]+\/links\/?$/;
const TRANSLATIONS = /^\/api\/components\/([^/]+\/[^/]+)\/translations\/?$/;

const startSynthetic = useSyntheticUpstream();

/** The synthetic instance; links fail the first time, and the first retry is answered once the pull has had a bounded while to start every component it would. */
async function startUpstream(started: Set<string>) {
  const seen = { whileHeld: -1, released: false };
  const failed = new Set<string>();
  const from = await startSynthetic(SCALE, async (path, response) => {
    const component = TRANSLATIONS.exec(path)?.[1];
    if (component) started.add(component);
    if (LINKS.test(path) && !failed.has(path)) {
      failed.add(path);
      response.writeHead(503, { 'Content-Type': 'application/json' });
      response.end('{"detail":"Try again."}');
      return true;
    }
    if (LINKS.test(path)) {
      // Bounded: up to 2 s for the pull to start every component it would; none is complete meanwhile.
      for (let look = 0; look < 80 && !seen.released; look++) {
        if (started.size === SCALE.projects * SCALE.components) break;
        await sleep(25);
      }
      if (!seen.released) seen.whileHeld = started.size;
      seen.released = true;
    }
    return false;
  });
  return { from, seen };
}

describe('the walk of a full pull (issue 24)', () => {
  it('reads at most 32 components at once', async () => {
    const started = new Set<string>();
    const { from, seen } = await startUpstream(started);
    const out = join(tempDir(), 'mirror');
    const pulled = await runCli('pull', ['--from', from, '--out', out, '--concurrency', '8']);
    expect(pulled.code).toBe(0);
    expect(started.size).toBe(SCALE.projects * SCALE.components);
    expect(seen.whileHeld).toBeGreaterThan(0);
    expect(seen.whileHeld).toBeLessThanOrEqual(32);
  }, 60_000);
});
