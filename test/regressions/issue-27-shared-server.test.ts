/**
 * Issue 27, item 2 (the preview and the sidecar share their HTTP plumbing): both now listen through
 * http/server.ts, so the preview holds the sidecar's bounds too. One address holding 64 connections
 * could before open any number more to the preview; now the 65th is closed as it comes.
 */
import { cpSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { startPreview } from '../../src/preview/preview.ts';
import { FIXTURES, tempDir } from '../helpers.ts';

describe('the preview, over the server it shares with the sidecar', () => {
  it('closes a 65th connection from one address without answering it', async () => {
    const content = join(tempDir(), 'content');
    const out = join(tempDir(), 'dist');
    cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    const started = await startPreview({ outDir: out, port: 0 });
    if (!started.ok) throw new Error(started.message);
    const { hostname, port, pathname } = new URL(started.preview.url);
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 64; i++) held.push(await open(hostname, Number(port)));
      const extra = await open(hostname, Number(port));
      held.push(extra);
      const answer = await exchange(
        extra,
        `GET ${pathname} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toBe('');
      // The first connections are still served.
      expect(await exchange(held[0]!, `GET ${pathname} HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(
        /^HTTP\/1\.1 200 /,
      );
    } finally {
      for (const socket of held) socket.destroy();
      await started.preview.close();
    }
  });
});

function open(host: string, port: number): Promise<Socket> {
  return new Promise((done, failed) => {
    const socket = connect({ port, host }, () => done(socket));
    socket.on('error', failed);
  });
}

/** Sends a request and waits for the first bytes of an answer, or for the connection to close. */
function exchange(socket: Socket, text: string): Promise<string> {
  return new Promise((done) => {
    if (socket.destroyed) return done('');
    socket.once('data', (chunk: Buffer) => done(chunk.toString('latin1')));
    socket.once('close', () => done(''));
    socket.on('error', () => undefined);
    socket.write(text);
  });
}
