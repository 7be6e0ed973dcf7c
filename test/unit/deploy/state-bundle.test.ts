/**
 * The state object of `--state`: what is written reads back the same, and
 * any damage (a changed byte, a cut, bytes added, another header) is refused
 * with the reason, never half used.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeStateBundle, encodeStateBundle } from '../../../src/deploy/state-bundle.ts';

const TARGET = 's3://snap/prefix at http://127.0.0.1:9000';
const FILES = new Map([
  ['deploy-record', Buffer.from('weblate-snapshot deploy record 1\t{}\n1 /api/\tindex.json x\n')],
  ['empty', Buffer.alloc(0)],
]);

/** The bundle's bytes before gzip, changed by `edit`, gzipped again. */
async function edited(edit: (bytes: Buffer) => Buffer): Promise<Buffer> {
  return gzipSync(edit(gunzipSync(await encodeStateBundle(TARGET, FILES))));
}

describe('the state bundle', () => {
  it('reads back the target and every file as written', async () => {
    const decoded = await decodeStateBundle(await encodeStateBundle(TARGET, FILES));
    expect(decoded).toEqual({ ok: true, target: TARGET, files: FILES });
  });

  it.each([
    [
      'a changed byte',
      (b: Buffer) => Buffer.concat([b.subarray(0, -2), Buffer.from('Y\n')]),
      'deploy-record does not match its SHA-256',
    ],
    ['a cut', (b: Buffer) => b.subarray(0, -5), 'deploy-record does not match its SHA-256'],
    ['bytes added', (b: Buffer) => Buffer.concat([b, Buffer.from('!')]), '1 bytes after the files'],
    [
      'another header',
      (b: Buffer) => Buffer.from(b.toString('latin1').replace('state 1', 'state 9'), 'latin1'),
      'no "weblate-snapshot state 1" line at its start',
    ],
  ])('refuses %s, saying why', async (_, edit, reason) => {
    const decoded = await decodeStateBundle(await edited(edit));
    expect(decoded).toEqual({ ok: false, reason: expect.stringContaining(reason) as string });
  });

  it('refuses bytes that are not gzip', async () => {
    const decoded = await decodeStateBundle(Buffer.from('not a state'));
    expect(decoded).toMatchObject({ ok: false, reason: expect.stringMatching(/^not gzip data/) });
  });
});
