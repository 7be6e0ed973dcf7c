/**
 * Issue 13, item 9 ("1 requests", "9 × 50 × 10 = 4,950"): the benchmark's report still counted
 * without the singular: `npm run bench -- --projects 1 …` printed "(1 projects × 4 components × 3
 * languages, plus source)", and a rebuild that rewrote one file "1 files rewritten". Every count of
 * the report now takes its noun in the singular for one. generate-content's line, mended before,
 * is held here too.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formatBench } from '../../bench/report.ts';
import type { BenchResult } from '../../bench/run.ts';
import { tempDir } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';

it('counts one project, one file, one edit and one request in the singular', () => {
  const rebuild = { ms: 10, files: 1, groupsRendered: 1 };
  const result = {
    scale: { projects: 1, components: 1, languages: 1, seed: 1, translations: 1 },
    content: { files: 1, reused: false },
    rounds: [],
    rebuilds: {
      counter: rebuild,
      cold: { ms: 10, reportedMs: 5, files: 1 },
      language: rebuild,
      session: { openMs: 10, updates: [] },
      watch: { medianMs: 5, maxMs: 5, files: 1, edits: 1, openMs: 10 },
    },
    sidecarDelete: { medianMs: 1, p90Ms: 1, requests: 1 },
  } as unknown as BenchResult;
  const report = formatBench(result);
  expect(report).toContain(
    'Instance: 1 translation (1 project × 1 component × 1 language, plus source), 1 content file\n',
  );
  expect(report).toContain(
    'one counter changed: 10 ms in the process, 1 file rewritten (1 group rendered)',
  );
  expect(report).toContain(
    'another counter changed: 10 ms spawn to exit (5 ms building), 1 file rewritten',
  );
  expect(report).toContain('1 file rewritten (1 edit; started in 10 ms)');
  expect(report).toContain('(1 request)');
  expect(report).not.toMatch(
    /\b1 (translations|projects|components|languages|files|groups|edits|requests)\b/,
  );
});

it('generate-content spells its count out instead of an equation that does not add up', async () => {
  const out = join(tempDir(), 'content');
  const result = await runScript('generate-content', [
    '--projects',
    '1',
    '--components',
    '2',
    '--languages',
    '1',
    '--out',
    out,
  ]);
  expect(result.stdout).toBe(
    `Wrote 4 files to ${out}/: 4 translations (1 project × 2 components × 1 language, plus the source translation of each component).\n`,
  );
});
