/**
 * `npm run pull` as a user runs it, in-process, against loopback servers.
 * Usage errors, a URL that is not a Weblate API, an unreachable server, a
 * folder that is not a pull's, the token from the environment, and a pull cut
 * off midway that a re-run completes, fetching only what was missing (both
 * as processes).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORD_FILE } from '../../src/pull/record.ts';
import { parseState, STATE_FILE } from '../../src/pull/state.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { runScript } from '../support/run-script.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';
import { startLoopbackServer } from '../support/loopback-server.ts';

const RECORDED = join(FIXTURES, 'pull-recorded');
const recorded = recordedResponses(join(RECORDED, 'responses'));
const pullCli = (args: string[], env?: Record<string, string>) =>
  runCli('pull', args, env ? { env } : {});
const noStackTrace = /\n\s+at /;

describe('npm run pull', () => {
  it('prints its options with --help', async () => {
    const result = await pullCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run pull -- [options]');
    for (const flag of [
      '--from URL',
      '--out DIR',
      '--token KEY',
      '--concurrency N',
      '--retries N',
      '--max-wait SECONDS',
    ])
      expect(result.stdout).toContain(flag);
    expect(result.stdout).toMatch(/--project SLUG\s+pull only this project \(repeatable\)/);
  });

  it.each([
    [['--out', 'x'], 'pull needs --from URL and --out DIR'],
    [
      ['--from', 'ftp://weblate.example.org/api/', '--out', 'x'],
      '--from expects an http(s) URL (got "ftp://weblate.example.org/api/")',
    ],
    [
      ['--from', 'https://weblate.example.org/api/', '--out', 'x', '--concurrency', '0'],
      '--concurrency expects an integer from 1 to 16 (got "0")',
    ],
  ])('refuses %j with exit 1', async (args, message) => {
    const result = await pullCli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(noStackTrace);
  });

  it('says so when the URL is a web page and not a Weblate API', async () => {
    const server = await startLoopbackServer(async (_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!DOCTYPE html><title>Weblate</title>');
    });
    try {
      const result = await pullCli([
        '--from',
        `${server.url}/`,
        '--out',
        join(tempDir(), 'mirror'),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `${server.url}/ is not a Weblate API: / did not answer with a JSON object listing projects (got not JSON (text/html; charset=utf-8)). ` +
          `The API of a Weblate site is at ${server.url}/api/ (or below its URL prefix).`,
      );
      expect(result.stderr).not.toMatch(noStackTrace);
    } finally {
      await server.close();
    }
  });

  it('says so when the URL answers JSON that does not list projects', async () => {
    const server = await startScriptedServer(() => ({ status: 200, body: '{"status":"ok"}' }));
    try {
      const result = await pullCli([
        '--from',
        `${server.url}/api/`,
        '--out',
        join(tempDir(), 'mirror'),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `${server.url}/api/ is not a Weblate API: /api/ did not answer with a JSON object listing projects (got JSON without a projects link).`,
      );
    } finally {
      await server.close();
    }
  });

  it('says which URL could not be reached, and how to resume', async () => {
    const server = await startScriptedServer(() => ({ status: 200, body: '{}' }));
    await server.close();
    const out = join(tempDir(), 'mirror');
    const result = await pullCli(['--from', `${server.url}/api/`, '--out', out, '--retries', '0']);
    // EX_TEMPFAIL: a later run resumes it.
    expect(result.code).toBe(75);
    expect(result.stderr).toContain(
      `${server.url}/api/ failed once (last: ECONNREFUSED).\nWhat was fetched is kept in ${out}/${STATE_FILE}`,
    );
    expect(result.stderr).not.toMatch(noStackTrace);
  });

  it('refuses to write into a folder that holds other content', async () => {
    const out = join(tempDir(), 'content');
    mkdirSync(out);
    writeFileSync(join(out, 'site.yaml'), 'base_url: https://l10n.example.org\n');
    const result = await pullCli(['--from', 'http://127.0.0.1:9/api/', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${out} is not empty and was not written by a pull; give a new or empty folder with --out.\n`,
    );
    expect(readFileSync(join(out, 'site.yaml'), 'utf8')).toBe(
      'base_url: https://l10n.example.org\n',
    );
  });

  it('sends the token of WEBLATE_TOKEN when --token is not given', async () => {
    const server = await startScriptedServer(recorded);
    try {
      const result = await pullCli(
        ['--from', `${server.url}/api/`, '--out', join(tempDir(), 'mirror')],
        { WEBLATE_TOKEN: 'wlu_from_env' },
      );
      expect(result.code).toBe(0);
      expect(new Set(server.log.map((entry) => entry.authorization))).toEqual(
        new Set(['Token wlu_from_env']),
      );
    } finally {
      await server.close();
    }
  });

  it('resumes a pull cut off midway, fetching only what was missing', async () => {
    const cutOff = '/api/components/fossapp/glossary/statistics/';
    let broken = true;
    const server = await startScriptedServer(
      (request: IncomingMessage): Promise<Scripted> | Scripted =>
        broken && request.url === cutOff ? 'drop' : recorded(request),
    );
    const out = join(tempDir(), 'mirror');
    const args = [
      '--from',
      `${server.url}/api/`,
      '--out',
      out,
      '--concurrency',
      '1',
      '--retries',
      '0',
    ];
    // As processes: the first pull's end also ends the requests it had in flight, which the
    // count of requests below relies on.
    try {
      const first = await runScript('pull', args);
      expect(first.code).toBe(75);
      expect(first.stderr).toContain(`${server.url}${cutOff} failed once (last: `);
      expect(first.stderr).toContain(
        `What was fetched is kept in ${out}/${STATE_FILE}: run the same command again`,
      );
      expect(existsSync(join(out, 'site.yaml'))).toBe(false);
      const kept = [...parseState(readFileSync(join(out, STATE_FILE), 'utf8')).answers.keys()].map(
        (url) => url.slice(server.url.length),
      );
      expect(kept.length).toBeGreaterThanOrEqual(10);
      const firstRun = server.log.length;

      broken = false;
      const second = await runScript('pull', args);
      expect(second.stderr.split('\n')[0]).toBe(
        `Resuming: ${kept.length} answers kept by the interrupted pull are read from ${STATE_FILE}.`,
      );
      expect(second.stderr).toContain('warning: fossapp/android has 2 add-on(s)');
      expect(second.code).toBe(0);
      const fetchedAgain = server.log.slice(firstRun).map((entry) => entry.url);
      expect(fetchedAgain).toContain(cutOff);
      expect(fetchedAgain.filter((url) => kept.includes(url))).toEqual([]);
      expect(kept.length + fetchedAgain.length).toBe(22);
      expect(second.stdout).toContain(`${kept.length} read back from the interrupted pull`);
      expect(existsSync(join(out, STATE_FILE))).toBe(false);
      const tree = readTree(out);
      expect(tree.delete(RECORD_FILE)).toBe(true);
      tree.set('site.yaml', tree.get('site.yaml')!.replace(server.url, 'http://127.0.0.1:PORT'));
      expect(tree).toEqual(readTree(join(RECORDED, 'expected')));
    } finally {
      await server.close();
    }
  });
});
