/**
 * Issue 12: ESLint "with zero warnings, run by npm test". `npm test` and `npm run lint` ran a bare
 * `eslint .`, which exits 0 on warnings (an unused eslint-disable comment is one by default), so a
 * warning passed the suite. Both now give ESLint --max-warnings 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

it.each(['test', 'lint'])('npm run %s fails on an ESLint warning', (name) => {
  const eslint = scripts[name]!.split('&&')
    .map((step) => step.trim().split(/\s+/))
    .filter((words) => words[0] === 'eslint');
  expect(eslint).toHaveLength(1);
  expect(eslint[0]!.join(' ')).toMatch(/ --max-warnings[ =]0( |$)/);
});
