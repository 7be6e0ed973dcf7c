/**
 * Issue 22, item 10: the sidecar took a 1-character key from a tokens file any user could read,
 * and let a client try wrong keys as fast as it liked. Now a key under 16 characters is refused,
 * a tokens file others can read is warned about, and after 10 wrong keys in a minute a client
 * address is answered 429 with Retry-After (other addresses are not).
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScript } from '../support/run-script.ts';
import { KEY, startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

const noKeys = { WEBLATE_SNAPSHOT_TOKENS: '' };

describe('weak keys', () => {
  it('refuses a key shorter than 16 characters, naming the file and line', async () => {
    const space = workspace('minimal');
    const keys = join(space.dir, 'keys.txt');
    writeFileSync(keys, '# the deploy key\nk\n', { mode: 0o600 });
    const result = await runScript(
      'sidecar',
      ['--content', space.content, '--out', space.out, '--port', '0', '--tokens-file', keys],
      { env: noKeys },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${keys}:2: expected a key of at least 16 characters (got 1); make one with: openssl rand -hex 24`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a short key in the environment too', async () => {
    const space = workspace('minimal');
    const result = await runScript(
      'sidecar',
      ['--content', space.content, '--out', space.out, '--port', '0'],
      { env: { WEBLATE_SNAPSHOT_TOKENS: 'short-key' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'WEBLATE_SNAPSHOT_TOKENS, key 1: expected a key of at least 16 characters (got 9)',
    );
  });

  it('warns when other users can read the tokens file, and not when only its owner can', async () => {
    const space = workspace('minimal');
    const keys = join(space.dir, 'keys.txt');
    writeFileSync(keys, `${KEY}\n`);
    chmodSync(keys, 0o644);
    const open = await startSidecar(space, { args: ['--tokens-file', keys], env: noKeys });
    expect(await open.stop()).toBe(0);
    expect(open.output()).toContain(
      `Warning: --tokens-file ${keys} can be read by other users (mode 644); run chmod 600 on it.`,
    );
    chmodSync(keys, 0o600);
    const closed = await startSidecar(space, { args: ['--tokens-file', keys], env: noKeys });
    expect(await closed.stop()).toBe(0);
    expect(closed.output()).not.toContain('Warning');
  });
});

describe('wrong keys', () => {
  it('answers 429 with Retry-After after 10 wrong keys from one address, and not another', async () => {
    const space = workspace('minimal');
    const sidecar = await startSidecar(space);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++)
        statuses.push((await patch(sidecar, `wlu_wrong-key-${i}-000000`, '127.0.0.4')).status);
      expect(statuses).toEqual(Array(10).fill(401));
      const throttled = await patch(sidecar, KEY, '127.0.0.4');
      expect(throttled.status).toBe(429);
      const retryAfter = Number(/\r\nRetry-After: (\d+)\r\n/i.exec(throttled.text)?.[1]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(throttled.text).toContain(
        `\r\n\r\n{"detail":"Request was throttled. Expected available in ${retryAfter} seconds."}\n`,
      );
      expect((await patch(sidecar, KEY, '127.0.0.5')).status).toBe(200);
    } finally {
      expect(await sidecar.stop()).toBe(0);
    }
  });
});

// --- internal ---

/** A PATCH of a language with a key, sent from a given loopback address, and the answer as text. */
function patch(
  sidecar: RunningSidecar,
  key: string,
  from: string,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(sidecar.origin);
  const body = '{"population":5}';
  const head =
    `PATCH ${new URL(sidecar.api).pathname}languages/cs/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
    `Authorization: Token ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  return new Promise((done, failed) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress: from });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', failed);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    socket.write(head + body);
  });
}
