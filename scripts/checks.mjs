// `npm test`'s static checks: tsc, ESLint and Prettier at the same time rather than one after the
// other, since each runs on one core. Each one's output is printed whole once it ends, so they
// never interleave; the exit code is 1 if any of them failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const CHECKS = [
  ['node_modules/typescript/bin/tsc', '--noEmit'],
  ['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.'],
  ['node_modules/prettier/bin/prettier.cjs', '--check', '.'],
];

/** Runs one check with node; resolves to its exit code once its output is printed. */
function runCheck([script, ...args]) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => {
      process.stderr.write(`${script}: ${error.message}\n`);
      done(1);
    });
    child.once('close', (code) => {
      process.stdout.write(Buffer.concat(chunks));
      done(code ?? 1);
    });
  });
}

const codes = await Promise.all(CHECKS.map(runCheck));
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
