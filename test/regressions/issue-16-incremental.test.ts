/**
 * Issue 16: a tree of the 2026.8 flavour rebuilt in place after a change,
 * through a build and through a kept-open session (the sidecar's path), is
 * byte for byte the tree a full build of the changed content gives. The
 * changes the flavour adds: a category's settings (inherited below it), its
 * parent, counters that reach a category's statistics, a component moved
 * into another category (its encoded folder goes, the new one comes), and
 * the flavour itself (a new tree).
 */
import { cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { Session } from '../../src/session/session.ts';
import { buildInMemory, FIXTURES, readTree, tempDir } from '../helpers.ts';

type Edit = (content: string) => void;

const edit =
  (file: string, change: (text: string) => string): Edit =>
  (content) => {
    const path = join(content, file);
    const before = readFileSync(path, 'utf8');
    const after = change(before);
    expect(after, `${file} changed`).not.toBe(before);
    writeFileSync(path, after);
  };

const MANUAL = 'projects/docs/components/manual.yaml';

const changes: [name: string, change: Edit, mode?: 'fresh'][] = [
  [
    "a component's counters, summed into its categories",
    edit(MANUAL, (t) => t.replace('translated: 30\n', 'translated: 31\n')),
  ],
  [
    'a component moved into another category',
    edit(MANUAL, (t) => t.replace('category: guides', 'category: internals')),
  ],
  [
    'a component moved out of its categories',
    edit(MANUAL, (t) => t.replace('category: guides\n', '')),
  ],
  [
    'a setting of a category, which components inherit',
    edit('projects/docs/categories/guides.yaml', (t) => t.replace('CC-BY-4.0', 'MIT')),
  ],
  [
    "a category's parent",
    edit('projects/docs/categories/internals.yaml', (t) =>
      t.replace('parent: api', 'parent: guides'),
    ),
  ],
  [
    "a project's check flags, in every effective_check_flags below it",
    edit('projects/docs/project.yaml', (t) => t.replace('safe-html', 'xml-text')),
  ],
  [
    'a category renamed (its id kept): the paths of what lies below it change, not their objects',
    (content) => {
      const folder = join(content, 'projects/docs/categories');
      renameSync(join(folder, 'api.yaml'), join(folder, 'interfaces.yaml'));
      edit('projects/docs/categories/internals.yaml', (t) =>
        t.replace('parent: api', 'parent: interfaces'),
      )(content);
    },
  ],
];

async function builtCopy() {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'current/content'), content, { recursive: true });
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return { content, out };
}

async function expectFullBuild(content: string, out: string): Promise<void> {
  const full = await buildInMemory(content);
  expect(full.report.errors).toEqual([]);
  const tree = readTree(out);
  expect([...tree.keys()].sort()).toEqual([...full.files.keys()].sort());
  for (const [path, text] of full.files) expect(tree.get(path), path).toBe(text);
}

describe('rebuilding a 2026.8 tree in place', () => {
  it.each(changes)('after %s gives the tree of a full build', async (_, change, mode) => {
    const { content, out } = await builtCopy();
    change(content);
    const report = await buildDirectory({ contentDir: content, outDir: out });
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe(mode ?? 'in-place');
    await expectFullBuild(content, out);
  });

  it('writes a new tree when the flavour changes', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
    await buildDirectory({ contentDir: content, outDir: out });
    edit('site.yaml', (t) => `${t}weblate_version: "2026.8"\n`)(content);
    const seen: string[] = [];
    const report = await buildDirectory({
      contentDir: content,
      outDir: out,
      onSettingsChange: (change) => seen.push(change),
    });
    expect(report.mode).toBe('fresh');
    expect(seen).toEqual(['Weblate version 4 → 2026.8']);
    await expectFullBuild(content, out);
    expect(readTree(out).get('api/index.json')).toContain('"categories":');
  });

  it("patches a session for a component's change (its categories' statistics included) and for a category's", async () => {
    const { content, out } = await builtCopy();
    const opened = await Session.open({ contentDir: content, outDir: out });
    if (!opened.ok) throw new Error('the fixture has errors');
    const { session } = opened;
    try {
      const manual = readFileSync(join(content, MANUAL), 'utf8');
      const moved = await session.update([
        { path: MANUAL, text: manual.replace('category: guides', 'category: api') },
      ]);
      expect(moved.ok).toBe(true);
      await expectFullBuild(content, out);
      const category = 'projects/docs/categories/api.yaml';
      const renamed = readFileSync(join(content, category), 'utf8').replace(
        'name: API',
        'name: Interfaces',
      );
      expect((await session.update([{ path: category, text: renamed }])).ok).toBe(true);
      await expectFullBuild(content, out);
    } finally {
      await session.close();
    }
  });
});
