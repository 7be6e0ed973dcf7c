/**
 * Issue 12: ESLint "with zero warnings, run by npm test". `npm test` and `npm run lint` ran a bare
 * `eslint .`, which exits 0 on warnings (an unused eslint-disable comment is one by default), so a
 * warning passed the suite. Both now give ESLint --max-warnings 0; `npm test` runs its checks
 * through scripts/checks.mjs, so the ESLint step is read from there and run on a file with a
 * warning.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CHECKS, runChecks } from '../../scripts/checks.mjs';
import { ROOT } from '../helpers.ts';

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

const steps = (name: string) => scripts[name]!.split('&&').map((step) => step.trim());

/** A file whose one problem is a warning: a disable comment that disables nothing. */
const WARNING_ONLY = '/* eslint-disable no-console */\nexport const answer = 42;\n';

/** Runs node with `args` in the repository, `input` on stdin; its exit code and output. */
function runNode(args: readonly string[], input: string) {
  return new Promise<{ code: number | null; output: string }>((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, output }));
    child.stdin.end(input);
  });
}

it('npm test runs the checks first, and the suites only if every check passed', () => {
  expect(steps('test')).toEqual(['node scripts/checks.mjs', 'vitest run']);
});

it("fails npm test's ESLint check on a warning", async () => {
  const eslint = CHECKS.filter((check) => check[0]!.endsWith('eslint/bin/eslint.js'));
  expect(eslint).toHaveLength(1);
  const [script, ...args] = eslint[0]!;
  expect(args.at(-1)).toBe('.');
  // The check as listed, on one file given on stdin (a .mjs file: no type information needed).
  const onStdin = [...args.slice(0, -1), '--stdin', '--stdin-filename', 'scripts/issue-12.mjs'];
  const failed = await runNode([script!, ...onStdin], WARNING_ONLY);
  expect(failed.output).toMatch(/Unused eslint-disable directive/);
  // The warning alone failed it: no error was found.
  expect(failed.output).toMatch(/0 errors, 1 warning/);
  expect(failed.output).toMatch(/ESLint found too many warnings \(maximum: 0\)/);
  expect(failed.code).toBe(1);
});

it('fails the checks if any one check fails, and prints every one', async () => {
  const out: string[] = [];
  const sink = { write: (chunk: string | Uint8Array) => out.push(Buffer.from(chunk).toString()) };
  const check = (code: number) => [
    '-e',
    `console.log('check ${code}'); process.exitCode = ${code}`,
  ];
  expect(await runChecks([check(0), check(1), check(0)], sink)).toBe(1);
  expect(
    out
      .join('')
      .match(/check \d/g)
      ?.sort(),
  ).toEqual(['check 0', 'check 0', 'check 1']);
  expect(await runChecks([check(0), check(0)], sink)).toBe(0);
});

it('npm run lint fails on an ESLint warning', () => {
  const eslint = steps('lint')
    .map((step) => step.split(/\s+/))
    .filter((words) => words[0] === 'eslint');
  expect(eslint).toHaveLength(1);
  expect(eslint[0]!.join(' ')).toMatch(/ --max-warnings[ =]0( |$)/);
});
