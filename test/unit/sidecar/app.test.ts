/** The app called in-process, as a function of a web Request: no port, no child process. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { createSidecarApp, type SidecarApp } from '../../../src/sidecar/app.ts';
import { createKeyring } from '../../../src/sidecar/auth.ts';
import { Session } from '../../../src/session/session.ts';
import { FIXTURES, tempDir } from '../../helpers.ts';

describe('createSidecarApp', () => {
  let app: SidecarApp;
  const api = 'http://sidecar.test/mirror/api/';
  beforeAll(async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'features/content'), join(dir, 'content'), { recursive: true });
    const catalog = loadCatalog();
    const opened = await Session.open({
      contentDir: join(dir, 'content'),
      outDir: join(dir, 'dist'),
      catalog,
    });
    if (!opened.ok) throw new Error('fixture does not open');
    app = createSidecarApp({ session: opened.session, catalog, keyring: createKeyring(['k']) });
  });

  it('answers a GET from the tree and a HEAD with its length and no body', async () => {
    const get = await app(new Request(`${api}projects/alpha/`));
    const head = await app(new Request(`${api}projects/alpha/`, { method: 'HEAD' }));
    const text = await get.text();
    expect(get.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(await head.text()).toBe('');
  });

  it('routes by the request-target as sent, not as a URL parser would resolve it', async () => {
    const resolved = await app(new Request(`${api}projects/alpha/`), {
      method: 'GET',
      target: '/mirror/api/languages/../projects/alpha/',
    });
    expect(resolved.status).toBe(404);
  });

  it('answers a streamed body past 1 MiB with 413, reading no further', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
        if (pulled > 1000) controller.close();
      },
    });
    const request = new Request(`${api}languages/`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Authorization: 'Token k', 'Content-Type': 'application/json' },
    });
    const answer = await app(request);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ detail: 'Request body too large.' });
    expect(pulled).toBeLessThan(40);
  });
});
