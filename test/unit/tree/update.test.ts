/**
 * Updates in place through the target interface, in memory: the same path the sidecar and a
 * rebuild take on disk. After a change, the tree updated in place holds exactly the files a new
 * build of the changed content writes, having rewritten only the files whose bytes changed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryTarget, type MemoryTarget } from '../../../src/output/target.ts';
import { openContent } from '../../../src/resolve/open.ts';
import { fileGroups } from '../../../src/tree/groups.ts';
import type { GroupState, Journal, Manifest } from '../../../src/tree/manifest.ts';
import { updateInPlace } from '../../../src/tree/update.ts';
import { writeTree } from '../../../src/tree/write.ts';
import { FIXTURES, tempDir } from '../../helpers.ts';

async function modelOf(contentDir: string) {
  const opened = await openContent(contentDir);
  if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
  return opened.model;
}

/** A copy of the features fixture built into a memory target, with the manifest of what it holds. */
async function builtInMemory(): Promise<{
  content: string;
  target: MemoryTarget;
  manifest: Manifest;
}> {
  const content = join(tempDir(), 'content');
  execFileSync('cp', ['-r', join(FIXTURES, 'features/content'), content]);
  const target = memoryTarget();
  const manifest: Manifest = { tree: 'memory', groups: new Map(), journalLines: 0 };
  await writeTree(await modelOf(content), target, {
    onGroup: (key, fingerprint) => void manifest.groups.set(key, fingerprint),
  });
  return { content, target, manifest };
}

/** A journal kept in memory: every line appended, in order. */
function memoryJournal(): { journal: Journal; lines: [string, GroupState | 'removed'][] } {
  const lines: [string, GroupState | 'removed'][] = [];
  const journal: Journal = async (entries) => {
    const appended = [...entries];
    lines.push(...appended);
    return appended.length;
  };
  return { lines, journal };
}

describe('updateInPlace through a memory target', () => {
  it('brings a tree in line with changed content, rewriting only the files whose bytes changed', async () => {
    const { content, target, manifest } = await builtInMemory();
    const before = new Map(target.files);

    const file = join(content, 'projects/alpha/components/strings.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        /translated: (\d+)/,
        (_, n: string) => `translated: ${Number(n) - 1}`,
      ),
    );
    const changed = await modelOf(content);
    const { journal, lines } = memoryJournal();
    const stats = await updateInPlace(
      { target, journal, recordFiles: async () => undefined },
      fileGroups(changed),
      manifest,
    );

    const fresh = memoryTarget();
    await writeTree(changed, fresh);
    expect(new Map(target.files)).toEqual(new Map(fresh.files));
    const rewritten = [...target.files].filter(([path, text]) => before.get(path) !== text).length;
    expect(stats.filesWritten).toBe(rewritten);
    expect(rewritten).toBeGreaterThan(0);
    expect(rewritten).toBeLessThan(40);
    expect(stats.groupsRemoved).toBe(0);
    // Each rendered group is journaled unknown first, then with its new fingerprint.
    expect(lines.filter(([, state]) => state === null)).toHaveLength(stats.groupsRendered);
    expect(
      lines.slice(stats.groupsRendered).every(([key, state]) => manifest.groups.get(key) === state),
    ).toBe(true);
  });

  it('removes the folders of groups that are gone, and the groups nested in them', async () => {
    const { content, target, manifest } = await builtInMemory();
    execFileSync('rm', [join(content, 'projects/beta/components/docs.yaml')]);
    const changed = await modelOf(content);
    await updateInPlace(
      { target, journal: memoryJournal().journal, recordFiles: async () => undefined },
      fileGroups(changed),
      manifest,
    );
    const fresh = memoryTarget();
    await writeTree(changed, fresh);
    expect([...target.files.keys()].filter((path) => path.includes('/beta/docs/'))).toEqual([]);
    expect(new Map(target.files)).toEqual(new Map(fresh.files));
  });
});
