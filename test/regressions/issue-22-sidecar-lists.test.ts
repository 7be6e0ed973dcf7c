/**
 * Issue 22, item 10: after a write, the sidecar's own answers for /api/translations/ lagged it
 * (the count unchanged after a DELETE answered 204) until the deferred files were rewritten. Now
 * the sidecar answers those pages from its model while their files catch up; the files still
 * follow once writes pause.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH, call, startSidecar, workspace } from '../sidecar/support.ts';

const TRANSLATION = 'translations/alpha/strings/cs/';

describe('the instance-wide lists the sidecar answers after a write', () => {
  it('leave out a translation as soon as its DELETE is answered, on every page', async () => {
    const space = workspace();
    const sidecar = await startSidecar(space, { deferLists: true });
    let expected: number | undefined;
    try {
      const before = JSON.parse((await call(`${sidecar.api}translations/`)).text) as {
        count: number;
      };
      const gone = JSON.parse((await call(`${sidecar.api}${TRANSLATION}`)).text) as { url: string };
      expect((await call(`${sidecar.api}${TRANSLATION}`, 'DELETE', undefined, AUTH)).status).toBe(
        204,
      );
      const first = JSON.parse((await call(`${sidecar.api}translations/`)).text) as {
        count: number;
      };
      expected = before.count - 1;
      expect(first.count).toBe(expected);
      const last = JSON.parse((await call(`${sidecar.api}translations/?page=last`)).text) as {
        count: number;
      };
      expect(last.count).toBe(before.count - 1);
      const urls: string[] = [];
      for (let page = 1; page <= 50; page++) {
        const served = await call(`${sidecar.api}translations/?page=${page}`);
        if (served.status === 404) break;
        const body = JSON.parse(served.text) as { count: number; results: { url: string }[] };
        expect(body.count, `page ${page}`).toBe(before.count - 1);
        urls.push(...body.results.map((item) => item.url));
      }
      expect(urls).toHaveLength(before.count - 1);
      expect(urls).not.toContain(gone.url);
    } finally {
      expect(await sidecar.stop()).toBe(0);
    }
    // The files followed, as documented: at the latest when the sidecar stopped.
    const file = JSON.parse(
      readFileSync(join(space.out, 'api/translations/index.json'), 'utf8'),
    ) as { count: number };
    expect(file.count).toBe(expected);
  });
});
