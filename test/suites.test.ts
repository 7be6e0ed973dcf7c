/**
 * `npm run test:quick` runs the in-process suites: a suite that starts the sidecar or a server,
 * or runs more than a few commands as processes, belongs to the `processes` project, or the
 * inner loop slows down unseen.
 */
import fg from 'fast-glob';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './helpers.ts';
import { PROCESS_SUITES, SLOWEST_SUITES } from './support/suites.ts';

/** What starts a server of the tool, or the sidecar, in a process of its own. */
const STARTS_A_SERVER =
  /\b(startSidecar|useLocalS3|useContentBucket|useSyntheticUpstream|startOnFreePort|scriptArgs)\(/;
/** What runs one command as a process: a quick suite keeps those to a few a file. */
const RUNS_A_COMMAND = /\b(runScript|runBin|runProgram)\(/g;
const COMMANDS_PER_QUICK_SUITE = 3;
/** The setups (vitest.config.ts) that set the environment, the same for every file. */
const SETS_THE_ENVIRONMENT_FOR_ALL = ['test/support/aws-env.ts', 'test/support/temp-root.ts'];
/**
 * What no suite may do: they share one module graph and process per worker (`isolate: false` in
 * vitest.config.ts), so a change to the environment or a mocked module would leak into the next
 * file.
 */
const LEAKS_INTO_THE_NEXT_FILE =
  /process\.env\.\w+ =(?!=)|process\.env\[[^\]]+\] =(?!=)|Object\.assign\(process\.env|delete process\.env|vi\.(mock|stubEnv|stubGlobal|useFakeTimers)\(/;

it('lists every suite that starts servers or many processes among the process suites', () => {
  const all = fg.sync('test/**/*.test.ts', { cwd: ROOT });
  const listed = new Set(fg.sync(PROCESS_SUITES, { cwd: ROOT }));
  const quick = all.filter((file) => !listed.has(file));
  const slow = quick.filter((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const commands = text.match(RUNS_A_COMMAND)?.length ?? 0;
    return STARTS_A_SERVER.test(text) || commands > COMMANDS_PER_QUICK_SUITE;
  });
  expect(slow).toEqual([]);
  expect(quick.length).toBeGreaterThan(50);
});

it('names only suites that exist among the slowest, which start first, each once', () => {
  const all = new Set(fg.sync('test/**/*.test.ts', { cwd: ROOT }));
  expect(SLOWEST_SUITES.filter((file) => !all.has(file))).toEqual([]);
  expect(new Set(SLOWEST_SUITES).size).toBe(SLOWEST_SUITES.length);
});

it('keeps every suite from changing what the next file in its worker sees', () => {
  const suites = fg.sync(['test/**/*.test.ts', 'test/support/*.ts'], { cwd: ROOT });
  const leaking = suites.filter(
    (file) =>
      !SETS_THE_ENVIRONMENT_FOR_ALL.includes(file) &&
      LEAKS_INTO_THE_NEXT_FILE.test(readFileSync(join(ROOT, file), 'utf8')),
  );
  expect(leaking).toEqual([]);
  expect(suites.length).toBeGreaterThan(200);
});
