/**
 * An in-place rebuild after any kind of content change gives the tree a full
 * build of the changed content gives, byte for byte, and touches only what
 * changed.
 */
import {
  appendFileSync,
  cpSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../src/build.ts';
import { manifestPath, readManifest, staleLines } from '../src/tree/manifest.ts';
import { buildInMemory, FIXTURES, readTree, tempDir } from './helpers.ts';

type Edit = (content: string) => void;

const edit =
  (file: string, change: (text: string) => string): Edit =>
  (content) => {
    const path = join(content, file);
    writeFileSync(path, change(readFileSync(path, 'utf8')));
  };
const remove =
  (file: string): Edit =>
  (content) =>
    rmSync(join(content, file), { recursive: true });
const add =
  (file: string, text: string): Edit =>
  (content) =>
    writeFileSync(join(content, file), text);

const both =
  (...edits: Edit[]): Edit =>
  (content) =>
    edits.forEach((e) => e(content));

const STRINGS = 'projects/alpha/components/strings.yaml';

const changes: [name: string, change: Edit, expectMode?: 'fresh'][] = [
  [
    "one translation's counters",
    edit(STRINGS, (t) => t.replace('translated: 4\n', 'translated: 3\n')),
  ],
  [
    'a language renamed',
    edit('languages/de.yaml', (t) => t.replace('German (Germany)', 'Deutsch')),
  ],
  ['a catalog language overridden by a new file', add('languages/cs.yaml', 'name: Čeština\n')],
  ['a language file removed', remove('languages/eo.yaml')],
  [
    'a translation added',
    edit(STRINGS, (t) => t.replace('translations:\n', 'translations:\n  fr: {translated: 2}\n')),
  ],
  [
    'a translation removed',
    edit('projects/beta/components/docs.yaml', (t) => t.replace('  he:\n    id: 202\n', '')),
  ],
  ['a component removed', remove('projects/alpha/components/glossary.yaml')],
  [
    'a component added',
    add(
      'projects/beta/components/extra.yaml',
      'name: Extra\nsource_language: en\nrepo: x\nfilemask: "*.po"\nfile_format: po\ntranslations: {cs: {}}\n',
    ),
  ],
  [
    'a project removed',
    both(
      remove('projects/beta'),
      edit(STRINGS, (t) => t.replace('links: [beta]\n', '')),
    ),
  ],
  [
    'a project renamed (its slug, so its folder)',
    both(
      (content) => renameSync(join(content, 'projects/beta'), join(content, 'projects/gamma')),
      edit(STRINGS, (t) => t.replace('links: [beta]', 'links: [gamma]')),
    ),
  ],
  [
    'a project field changed',
    edit('projects/alpha/project.yaml', (t) => t.replace('name: Alpha', 'name: Alpha One')),
  ],
  [
    'the review setting of a project',
    edit('projects/beta/project.yaml', (t) =>
      t.replace('translation_review: true', 'translation_review: false'),
    ),
  ],
  [
    'the repository a linked component shows',
    edit(STRINGS, (t) => t.replace('branch: main', 'branch: stable')),
  ],
  ['a component locked', edit(STRINGS, (t) => t.replace('locked: true', 'locked: false'))],
  ['a component shared into no project', edit(STRINGS, (t) => t.replace('links: [beta]\n', ''))],
  [
    'the page size (a new tree is swapped in)',
    edit('site.yaml', (t) => t.replace('page_size: 2', 'page_size: 3')),
    'fresh',
  ],
];

/** A copy of the features fixture and its tree (with the status site when `pages`), built once. */
async function builtCopy(pages = false) {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
  if (pages) appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
  const first = await buildDirectory({ contentDir: content, outDir: out });
  return { content, out, first };
}

describe('rebuilding in place after a change', () => {
  it.each(changes)('after %s gives the tree of a full build', async (_, change, expectMode) => {
    const { content, out, first } = await builtCopy();
    expect(first.mode).toBe('fresh');

    change(content);
    const report = await buildDirectory({ contentDir: content, outDir: out });
    expect(report.errors).toEqual([]);
    expect(report.mode).toBe(expectMode ?? 'in-place');

    const full = await buildInMemory(content);
    const tree = readTree(out);
    expect([...tree.keys()].sort()).toEqual([...full.files.keys()].sort());
    for (const [path, text] of full.files) expect(tree.get(path), path).toBe(text);
  });

  it('rewrites only the files of the changed translation and the lists and sums that show it', async () => {
    const { content, out } = await builtCopy();
    const before = readTree(out);
    edit(STRINGS, (t) => t.replace('translated: 4\n', 'translated: 3\n'))(content);
    const report = await buildDirectory({ contentDir: content, outDir: out });
    const after = readTree(out);
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path)).sort();
    expect(report.files).toBe(changed.length);
    expect(changed).toEqual([
      'api/components/alpha/strings/statistics/index.json',
      'api/components/alpha/strings/translations/index.json',
      'api/languages/cs/statistics/index.json',
      'api/projects/alpha/languages/index.json',
      'api/projects/alpha/statistics/index.json',
      'api/translations/alpha/strings/cs/index.json',
      'api/translations/alpha/strings/cs/statistics/index.json',
      'api/translations/index.json',
    ]);
  });

  it('writes nothing when nothing changed', async () => {
    const dir = tempDir();
    const out = join(dir, 'dist');
    await buildDirectory({ contentDir: join(FIXTURES, 'features/content'), outDir: out });
    const manifest = statSync(manifestPath(out), { bigint: true });
    const report = await buildDirectory({
      contentDir: join(FIXTURES, 'features/content'),
      outDir: out,
    });
    expect(report).toMatchObject({
      mode: 'in-place',
      files: 0,
      groupsRendered: 0,
      groupsRemoved: 0,
    });
    // Not even the manifest: it is written whole only once its journal is long.
    const after = statSync(manifestPath(out), { bigint: true });
    expect([after.ino, after.mtimeNs, after.size]).toEqual([
      manifest.ino,
      manifest.mtimeNs,
      manifest.size,
    ]);
  });

  it("appends a change to the manifest's journal, which the next rebuild reads", async () => {
    const { content, out } = await builtCopy();
    const before = statSync(manifestPath(out));
    edit(STRINGS, (t) => t.replace('translated: 4\n', 'translated: 3\n'))(content);
    const changed = await buildDirectory({ contentDir: content, outDir: out });
    const after = statSync(manifestPath(out));
    expect(after.ino).toBe(before.ino);
    expect(after.size).toBeGreaterThan(before.size);
    expect(staleLines((await readManifest(out))!)).toBe(2 * changed.groupsRendered!);
    expect(await buildDirectory({ contentDir: content, outDir: out })).toMatchObject({
      mode: 'in-place',
      files: 0,
      groupsRendered: 0,
    });
  });

  it('does not trust a manifest once the tree folder was replaced', async () => {
    const dir = tempDir();
    const out = join(dir, 'dist');
    const contentDir = join(FIXTURES, 'features/content');
    await buildDirectory({ contentDir, outDir: out });
    rmSync(out, { recursive: true });
    const report = await buildDirectory({ contentDir, outDir: out });
    expect(report.mode).toBe('fresh');
    expect(readTree(out).size).toBe((await buildInMemory(contentDir)).files.size);
  });
});

describe('rebuilding the status site in place after a change', () => {
  it.each(changes)(
    'after %s gives the tree of a full build, pages included',
    async (_, change, expectMode) => {
      const { content, out } = await builtCopy(true);
      change(content);
      const report = await buildDirectory({ contentDir: content, outDir: out });
      expect(report.errors).toEqual([]);
      expect(report.mode).toBe(expectMode ?? 'in-place');
      const full = await buildInMemory(content);
      expect([...full.files.keys()]).toContain('projects/alpha/strings/cs/index.html');
      const tree = readTree(out);
      expect([...tree.keys()].sort()).toEqual([...full.files.keys()].sort());
      for (const [path, text] of full.files) expect(tree.get(path), path).toBe(text);
    },
  );

  it('rewrites at most 30 files for a counter change: the pages, badges and exports that show it, and the API', async () => {
    const { content, out } = await builtCopy(true);
    const before = readTree(out);
    // A suggestion more: the figures move, no percent does.
    edit(STRINGS, (t) => t.replace('have_suggestion: 1\n', 'have_suggestion: 2\n'))(content);
    const report = await buildDirectory({ contentDir: content, outDir: out });
    const after = readTree(out);
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path)).sort();
    expect(report.files).toBe(changed.length);
    expect(changed.filter((path) => !path.startsWith('api/'))).toEqual([
      'engage/alpha/cs/index.html',
      'exports/stats/alpha/strings/index.csv',
      'exports/stats/alpha/strings/index.json',
      'languages/cs/alpha/index.html',
      'languages/cs/index.html',
      'projects/alpha/index.html',
      'projects/alpha/strings/cs/index.html',
      'projects/alpha/strings/index.html',
      'translate/alpha/strings/cs/index.html',
    ]);
    expect(changed.length).toBeLessThanOrEqual(30);
  });

  it('redraws the badges and charts whose whole percent a counter moves', async () => {
    const { content, out } = await builtCopy(true);
    const before = readTree(out);
    edit(STRINGS, (t) => t.replace('translated: 4\n', 'translated: 3\n'))(content);
    await buildDirectory({ contentDir: content, outDir: out });
    const after = readTree(out);
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path));
    expect(changed).toContain('widgets/alpha/cs/strings/svg-badge.svg');
    expect(changed).toContain('widgets/alpha/-/strings/multi-auto.svg');
    expect(after.get('widgets/alpha/cs/strings/svg-badge.svg')).toContain(
      'aria-label="translated: 10%"',
    );
  });
});
