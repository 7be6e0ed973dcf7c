/**
 * Issue 13, item 9 ("1 requests"): the benchmark's report still counted without the singular:
 * `npm run bench -- --projects 1 …` printed "(1 projects × 4 components × 3 languages, plus
 * source)", and a rebuild that rewrote one file "1 files rewritten". Every count of the report now
 * takes its noun in the singular for one.
 */
import { expect, it } from 'vitest';
import { formatBench } from '../../bench/report.ts';
import type { BenchResult } from '../../bench/run.ts';

it('counts one project, one file, one edit and one request in the singular', () => {
  const rebuild = { ms: 10, files: 1, groupsRendered: 1 };
  const result = {
    scale: { projects: 1, components: 1, languages: 1, seed: 1, translations: 1 },
    content: { files: 1, reused: false },
    rounds: [],
    rebuilds: {
      counter: rebuild,
      language: rebuild,
      session: { openMs: 10, updates: [] },
      watch: { medianMs: 5, maxMs: 5, files: 1, edits: 1, openMs: 10 },
    },
    sidecarDelete: { medianMs: 1, p90Ms: 1, requests: 1 },
  } as unknown as BenchResult;
  const report = formatBench(result);
  expect(report).toContain('Instance: 1 translation (1 project × 1 component × 1 language, plus source), 1 content file\n');
  expect(report).toContain('one counter changed: 10 ms, 1 file rewritten (1 group rendered)');
  expect(report).toContain('1 file rewritten (1 edit; started in 10 ms)');
  expect(report).toContain('(1 request)');
  expect(report).not.toMatch(/\b1 (translations|projects|components|languages|files|groups|edits|requests)\b/);
});
