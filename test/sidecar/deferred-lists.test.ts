/**
 * By default a write is answered once the changed object, its component,
 * project and languages show the change; the instance-wide lists whose
 * length changed (every page carries the count) follow once writes pause,
 * and before the sidecar stops. (The other sidecar tests run --strict-lists.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, readTreeMidWrite } from '../helpers.ts';
import {
  AUTH,
  call,
  expectTreeOfContent,
  startSidecar,
  workspace,
  type Workspace,
} from './support.ts';

const TRANSLATION = 'translations/alpha/strings/cs/';

describe('instance-wide lists after a write', () => {
  it('follow the answer: the translation is gone at once, /api/translations/ shortly after', async () => {
    const space = workspace();
    const sidecar = await startSidecar(space, { deferLists: true });
    try {
      expect((await call(`${sidecar.api}${TRANSLATION}`, 'DELETE', undefined, AUTH)).status).toBe(
        204,
      );
      expect((await call(`${sidecar.api}${TRANSLATION}`)).status).toBe(404);
      const component = JSON.parse(
        (await call(`${sidecar.api}components/alpha/strings/translations/`)).text,
      );
      expect(component.count).toBe(4);
      await eventually(() => treeMatchesContent(space));
      await expectTreeOfContent(space);
    } finally {
      expect(await sidecar.stop()).toBe(0);
    }
  });

  it('are rewritten before the sidecar stops', async () => {
    const space = workspace();
    const sidecar = await startSidecar(space, { deferLists: true });
    const before = JSON.parse(
      readFileSync(join(space.out, 'api/translations/index.json'), 'utf8'),
    ).count;
    expect((await call(`${sidecar.api}${TRANSLATION}`, 'DELETE', undefined, AUTH)).status).toBe(
      204,
    );
    expect(await sidecar.stop()).toBe(0);
    expect(
      JSON.parse(readFileSync(join(space.out, 'api/translations/index.json'), 'utf8')).count,
    ).toBe(before - 1);
    await expectTreeOfContent(space);
  });

  it('are repaired at the next start when the sidecar was killed before writing them', async () => {
    const space = workspace();
    const first = await startSidecar(space, { deferLists: true, args: [] });
    expect((await call(`${first.api}${TRANSLATION}`, 'DELETE', undefined, AUTH)).status).toBe(204);
    await first.kill();
    const second = await startSidecar(space, { deferLists: true });
    try {
      await expectTreeOfContent(space);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});

async function treeMatchesContent(space: Workspace): Promise<boolean> {
  const fresh = await buildInMemory(space.content);
  const tree = readTreeMidWrite(space.out);
  return (
    tree.size === fresh.files.size &&
    [...fresh.files].every(([path, text]) => tree.get(path) === text)
  );
}

/**
 * Waits for a condition to hold, trying every 100 ms. On a busy disk the lists can take many
 * seconds to follow, so the test's timeout is the bound (the tries stop after 5 minutes).
 */
async function eventually(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 3000; attempt++) {
    if (await condition()) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the condition did not hold within 5 minutes');
}
