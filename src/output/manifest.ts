/**
 * The manifest kept beside a built tree (`<out>.state/manifest`): which file
 * groups the tree holds and the fingerprint each was rendered from, plus the
 * identity of the tree folder it describes. Updates are appended as a journal:
 * a group is marked unknown before its files are touched and given its new
 * fingerprint after, so a crash at any point leaves a manifest that never
 * vouches for files it did not see written.
 */
import { open, readFile, rename, rm, stat, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

const HEADER = 'weblate-snapshot manifest 1';

/** What the manifest knows of a group: its fingerprint, or null while its files may be half-updated. */
export type GroupState = number | null;

export interface Manifest {
  /** `dev:ino` of the tree folder the manifest describes. */
  tree: string;
  groups: Map<string, GroupState>;
}

export function manifestPath(outDir: string): string {
  return `${outDir}.state/manifest`;
}

/** The identity of a folder, so a manifest is never trusted for a tree that was replaced or recreated. */
export async function treeIdentity(dir: string): Promise<string | null> {
  const info = await stat(dir).catch(() => null);
  return info?.isDirectory() ? `${info.dev}:${info.ino}` : null;
}

/** Reads a manifest, or null when there is none or it cannot be understood. */
export async function readManifest(file: string): Promise<Manifest | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const lines = text.split('\n');
  const header = /^weblate-snapshot manifest 1 (\S+)$/.exec(lines[0] ?? '');
  if (!header) return null;
  const groups = new Map<string, GroupState>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const space = line.indexOf(' ');
    if (space < 0) return null;
    const state = line.slice(0, space);
    const key = line.slice(space + 1);
    if (state === '-') groups.delete(key);
    else if (state === '?') groups.set(key, null);
    else groups.set(key, Number.parseInt(state, 36));
  }
  return { tree: header[1]!, groups };
}

/** Writes a whole manifest (temporary file, fsync, rename). */
export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.tmp-${process.pid}`;
  const handle = await open(temporary, 'w');
  try {
    let chunk = `${HEADER} ${manifest.tree}\n`;
    for (const [key, state] of manifest.groups) {
      chunk += `${state === null ? '?' : state.toString(36)} ${key}\n`;
      if (chunk.length > 1 << 20) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    await handle.write(chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/** Appends journal lines (`?` unknown, `-` removed, or a fingerprint) and waits until they are on disk. */
export async function appendManifest(file: string, entries: Iterable<[key: string, state: GroupState | 'removed']>): Promise<void> {
  let text = '';
  for (const [key, state] of entries) {
    text += `${state === 'removed' ? '-' : state === null ? '?' : state.toString(36)} ${key}\n`;
  }
  if (!text) return;
  const handle = await open(file, 'a');
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeManifest(file: string): Promise<void> {
  await rm(file, { force: true });
}
