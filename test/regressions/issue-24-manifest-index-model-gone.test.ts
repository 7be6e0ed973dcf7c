/**
 * Issue 24, point 4 (the full build of a million on disk under 1 GiB): the peak RSS of a full
 * build rose by some 500 MiB in its last minutes. When the manifest was closed, its 300 MB of
 * text was read back and indexed, the index serialized and copied into one buffer, all while
 * the model was live, and the build cache was written after that. The index is now made after
 * the build cache is recorded and the model let go, from the text without holding it, in the
 * same bytes as before.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { GroupStates } from '../../src/tree/group-states.ts';
import { FIXTURES, tempDir } from '../helpers.ts';

afterEach(() => vi.restoreAllMocks());

/** Builds the features fixture into a new folder; the folder and its state folder. */
async function buildFeatures(): Promise<{ content: string; out: string; state: string }> {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
  const report = await buildDirectory({ contentDir: content, outDir: out, full: true });
  expect(report.errors).toEqual([]);
  return { content, out, state: `${out}.state` };
}

describe("a full build's manifest index", () => {
  it('is made only once the build cache is recorded (the model let go)', async () => {
    // Whichever way the index is made, note whether the build cache was there when it was.
    const cacheThere: boolean[] = [];
    let state = '';
    const note = () => cacheThere.push(existsSync(join(state, 'build-cache')));
    const parse = GroupStates.parse.bind(GroupStates);
    vi.spyOn(GroupStates, 'parse').mockImplementation((text, from) => {
      note();
      return parse(text, from);
    });
    if ('indexToKeep' in GroupStates) {
      const indexToKeep = GroupStates.indexToKeep.bind(GroupStates);
      vi.spyOn(GroupStates, 'indexToKeep').mockImplementation((text, from) => {
        note();
        return indexToKeep(text, from);
      });
    }
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    state = `${out}.state`;
    cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
    const report = await buildDirectory({ contentDir: content, outDir: out, full: true });

    expect(report.errors).toEqual([]);
    expect(cacheThere).toEqual([true]);
    expect(existsSync(join(state, 'manifest.index'))).toBe(true);
  });

  it('holds the bytes a parse of the manifest encodes, and the next build reads it', async () => {
    const { content, out, state } = await buildFeatures();
    const text = readFileSync(join(state, 'manifest'));
    const kept = readFileSync(join(state, 'manifest.index'));
    const from = text.indexOf('\n') + 1;

    expect(kept.equals(GroupStates.parse(text, from)!.encodeIndex())).toBe(true);
    expect(kept.equals(Buffer.concat(GroupStates.indexToKeep(text, from)!))).toBe(true);
    const again = await buildDirectory({ contentDir: content, outDir: out });
    expect(again.mode).toBe('in-place');
    expect(again.files).toBe(0);
  });
});
