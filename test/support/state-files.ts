/**
 * The files a state in the store carries, read back by a test: its root, then
 * each part, gunzipped and cut at the files' sizes. No check beyond the
 * root's: a test that damages a state reads it first.
 */
import { gunzipSync } from 'node:zlib';
import { parseStateRoot, partKey } from '../../src/deploy/state-parts.ts';
import type { ObjectStore } from '../../src/deploy/store.ts';

export async function readStateFiles(
  store: ObjectStore,
  key: string,
): Promise<{ target: string; files: Map<string, Buffer> }> {
  const parsed = parseStateRoot((await store.get(key)) ?? Buffer.alloc(0));
  if (!parsed.ok) throw new Error(`the state at ${key}: ${parsed.reason}`);
  const parts: Buffer[] = [];
  for (const part of parsed.root.parts)
    parts.push(gunzipSync((await store.get(partKey(key, part.sha256)))!));
  const bytes = Buffer.concat(parts);
  const files = new Map<string, Buffer>();
  let at = 0;
  for (const file of parsed.root.files) {
    files.set(file.name, bytes.subarray(at, at + file.size));
    at += file.size;
  }
  return { target: parsed.root.target, files };
}
