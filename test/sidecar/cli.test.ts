/**
 * `npm run sidecar` as a user runs it: help, usage errors and exit codes,
 * keys from a tokens file, content errors, and a SIGTERM during writes that
 * lets the writes in progress finish before it exits 0.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScript } from '../support/run-script.ts';
import { call, expectTreeOfContent, JSON_BODY, startSidecar, workspace } from './support.ts';

const noStackTrace = /\n\s+at /;
const noKeys = { WEBLATE_SNAPSHOT_TOKENS: '' };

describe('npm run sidecar', () => {
  it('prints its options with --help and exits 0', async () => {
    const result = await runScript('sidecar', ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run sidecar -- [options]');
    for (const flag of [
      '--content DIR',
      '--out DIR',
      '--port N',
      '--bind ADDRESS',
      '--tokens-file FILE',
      '--read-only',
      '--base-url URL',
      '--pagination path|query',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  it.each([
    [['--port', 'x'], '--port expects a port number from 0 to 65535 (got "x")'],
    [['--tokens-file', '/nonexistent/keys'], '--tokens-file /nonexistent/keys cannot be read'],
    [['--page-size', '0'], '--page-size expects an integer from 1 to 1000 (got "0")'],
  ])('refuses %j with exit 1', async (args, message) => {
    const space = workspace('minimal');
    const result = await runScript('sidecar', [
      '--content',
      space.content,
      '--out',
      space.out,
      ...args,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(noStackTrace);
  });

  it('refuses to start without a key, unless --read-only', async () => {
    const space = workspace('minimal');
    const result = await runScript(
      'sidecar',
      ['--content', space.content, '--out', space.out, '--port', '0'],
      { env: noKeys },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'No API key: give --tokens-file FILE or set WEBLATE_SNAPSHOT_TOKENS, or start with --read-only',
    );
  });

  it('refuses a tokens file inside the content folder, and a bad line in one', async () => {
    const space = workspace('minimal');
    writeFileSync(join(space.content, 'keys.txt'), 'k\n');
    const inside = await runScript(
      'sidecar',
      [
        '--content',
        space.content,
        '--out',
        space.out,
        '--tokens-file',
        join(space.content, 'keys.txt'),
      ],
      { env: noKeys },
    );
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain(`--tokens-file must not be inside ${space.content}/`);
    writeFileSync(join(space.dir, 'keys.txt'), '# keys\nbad key\n');
    const bad = await runScript(
      'sidecar',
      [
        '--content',
        space.content,
        '--out',
        space.out,
        '--tokens-file',
        join(space.dir, 'keys.txt'),
      ],
      {
        env: noKeys,
      },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'keys.txt:2: expected a key of printable ASCII characters without spaces',
    );
  });

  it('lists content errors and exits 1 without serving', async () => {
    const space = workspace('minimal');
    writeFileSync(join(space.content, 'languages.yaml'), 'x: 1\n');
    writeFileSync(join(space.content, 'site.yaml'), 'base_url: nope\n');
    const result = await runScript(
      'sidecar',
      ['--content', space.content, '--out', space.out, '--port', '0'],
      {
        env: { WEBLATE_SNAPSHOT_TOKENS: 'wlu_content-errors-key' },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/site\.yaml:1:11 {2}base_url {2}expected an http\(s\) URL/);
    expect(result.stderr).toContain('The content has errors; nothing is served.');
  });

  it('takes keys from a tokens file; on SIGTERM finishes the writes it took, then exits 0', async () => {
    const space = workspace();
    writeFileSync(join(space.dir, 'keys.txt'), '# the deploy key\nwlu_file-key-000001\n');
    const sidecar = await startSidecar(space, {
      args: ['--tokens-file', join(space.dir, 'keys.txt')],
      env: noKeys,
    });
    expect(sidecar.output()).toContain('(writes need the API key; Ctrl+C to stop)');
    const headers = { ...JSON_BODY, Authorization: 'Token wlu_file-key-000001' };
    const writes = Array.from({ length: 10 }, (_, i) =>
      call(`${sidecar.api}languages/de/`, 'PATCH', { population: 100 + i }, headers).then(
        (served) => served.status,
        () => 'cut',
      ),
    );
    const first = await Promise.race(writes);
    expect(first).toBe(200);
    const code = await sidecar.stop();
    expect(code).toBe(0);
    const statuses = await Promise.all(writes);
    // Every write it had taken was answered; none was cut halfway.
    expect(statuses.filter((status) => status !== 200 && status !== 'cut')).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    await expectTreeOfContent(space);
  });
});
