// `npm test`'s static checks: tsc, ESLint and Prettier at the same time rather than one after the
// other, since each runs on one core. Each one's output is printed whole once it ends, so they
// never interleave; the exit code is 1 if any of them failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

/** Each check as a script node runs and its arguments (ESLint's: a warning fails it). */
export const CHECKS = [
  ['node_modules/typescript/bin/tsc', '--noEmit'],
  ['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.'],
  ['node_modules/prettier/bin/prettier.cjs', '--check', '.'],
];

/**
 * Runs the checks at the same time with node, each one's output written to `out` whole once it
 * ends; resolves to 1 if any of them failed (or could not start), else 0.
 */
export async function runChecks(checks = CHECKS, out = process.stdout) {
  const codes = await Promise.all(checks.map((check) => runCheck(check, out)));
  return codes.some((code) => code !== 0) ? 1 : 0;
}

function runCheck([script, ...args], out) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => {
      out.write(`${script}: ${error.message}\n`);
      done(1);
    });
    child.once('close', (code) => {
      out.write(Buffer.concat(chunks));
      done(code ?? 1);
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runChecks();
}
