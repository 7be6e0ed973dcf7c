/**
 * Faults: a stream of writes against the real process, killed with SIGKILL at
 * varied points (after k answers, or after a short delay drawn from a fixed
 * seed), then restarted. After every kill each YAML and JSON file must parse;
 * after every restart the sidecar must start cleanly and its tree must be a
 * fresh build of the content as the kill left it.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/random.ts';
import {
  AUTH,
  call,
  expectEveryFileParses,
  expectTreeOfContent,
  JSON_BODY,
  startSidecar,
  workspace,
  type RunningSidecar,
} from './support.ts';

const SEED = 20240502;
const ROUNDS = 12;

describe('the sidecar killed during writes', () => {
  it(
    `restarts cleanly with whole files and the tree of its content, ${ROUNDS} kills in a row (seed ${SEED})`,
    { timeout: 240_000 },
    async () => {
      const random = seededRandom(SEED);
      const space = workspace();
      for (let round = 0; round < ROUNDS; round++) {
        // As the sidecar runs by default: instance-wide lists follow the answers, so kills also land before they do.
        const sidecar = await startSidecar(space, { deferLists: true });
        expect(sidecar.output(), `restart ${round}`).toMatch(
          /^Sidecar serving .*; Ctrl\+C to stop\)\n$/,
        );
        await expectTreeOfContent(space);
        const operations = writesOfRound(round, random);
        const killAt =
          round % 2 === 0
            ? { answers: Math.floor(random() * operations.length) }
            : { ms: Math.floor(random() * 400) };
        const statuses = await streamThenKill(sidecar, operations, killAt);
        for (const status of statuses) expect(status, `round ${round}`).toBeLessThan(500);
        expect(await expectEveryFileParses(space)).toBeGreaterThan(100);
      }
      const last = await startSidecar(space);
      try {
        expect(last.output()).toMatch(/^Sidecar serving .*; Ctrl\+C to stop\)\n$/);
        await expectTreeOfContent(space);
        expect((await call(`${last.api}languages/`)).status).toBe(200);
      } finally {
        expect(await last.stop()).toBe(0);
      }
    },
  );
});

// --- internal ---

interface Operation {
  method: string;
  path: string;
  body?: object;
}

/** The writes of a round: renames, new languages, deletions of languages made earlier, of translations and of languages in several files. */
function writesOfRound(round: number, random: () => number): Operation[] {
  const operations: Operation[] = [];
  for (let i = 0; i < 12; i++) {
    const pick = random();
    if (pick < 0.35) {
      const code = ['de', 'cs', 'ar', 'eo', 'tlh_XX', 'he'][Math.floor(random() * 6)]!;
      operations.push({
        method: 'PATCH',
        path: `languages/${code}/`,
        body: { name: `Round ${round} name ${i}`, population: round * 100 + i },
      });
    } else if (pick < 0.65) {
      operations.push({
        method: 'POST',
        path: 'languages/',
        body: {
          code: `k${round}x${i}`,
          name: `K ${round}.${i}`,
          plural: { number: 2, formula: 'n != 1' },
        },
      });
    } else if (pick < 0.85) {
      operations.push({ method: 'DELETE', path: `languages/k${Math.max(0, round - 1)}x${i}/` });
    } else {
      const translations = [
        'alpha/strings/ar/',
        'alpha/strings/ca@valencia/',
        'beta/docs/he/',
        'alpha/shared/cs/',
        'beta/empty/he/',
      ];
      operations.push({
        method: 'DELETE',
        path: `translations/${translations[Math.floor(random() * translations.length)]}`,
      });
    }
  }
  // Languages whose deletion edits several component files and deletes a language file.
  const wide = { 3: 'he', 5: 'de', 7: 'cs' }[round];
  if (wide)
    operations.splice(Math.floor(random() * operations.length), 0, {
      method: 'DELETE',
      path: `languages/${wide}/`,
    });
  return operations;
}

/** Sends the writes, three at a time, and kills the process after `answers` answers or `ms` milliseconds. The statuses answered. */
async function streamThenKill(
  sidecar: RunningSidecar,
  operations: Operation[],
  killAt: { answers: number } | { ms: number },
): Promise<number[]> {
  const statuses: number[] = [];
  let killed: Promise<void> | null = null;
  const kill = () => (killed ??= sidecar.kill());
  if ('ms' in killAt) setTimeout(() => void kill(), killAt.ms);
  let next = 0;
  const worker = async () => {
    while (next < operations.length && !killed) {
      const operation = operations[next++]!;
      try {
        const served = await call(
          sidecar.api + operation.path,
          operation.method,
          operation.body,
          operation.body ? JSON_BODY : AUTH,
        );
        statuses.push(served.status);
        if ('answers' in killAt && statuses.length >= killAt.answers) void kill();
      } catch {
        // The process died under the request.
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  await kill();
  return statuses;
}
