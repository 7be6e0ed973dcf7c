/**
 * The build cache (src/cache/): a new build process that finds it reads only
 * the content files it cannot vouch for, patches the cached model, and gives
 * the tree a full build gives, byte for byte. A cache deleted, truncated or
 * corrupted, or made stale by anything else that wrote the tree, is not
 * trusted, and the tree is the same.
 */
import {
  cpSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../src/build.ts';
import { decodeModel, encodeModel } from '../src/cache/model-codec.ts';
import { aggregate } from '../src/model/aggregates.ts';
import { loadCatalog } from '../src/catalog/catalog.ts';
import { openContent } from '../src/resolve/open.ts';
import { Session } from '../src/session/session.ts';
import { createContext } from '../src/tree/groups.ts';
import { stateDir } from '../src/tree/state-folder.ts';
import { createFingerprintCache } from '../src/tree/fingerprints.ts';
import { buildInMemory, FIXTURES, readTree, tempDir } from './helpers.ts';

const STRINGS = 'projects/alpha/components/strings.yaml';
const DOCS = 'projects/beta/components/docs.yaml';
const CACHE = 'build-cache';
const JOURNAL = 'build-cache.journal';

/** A copy of a fixture (features unless named), its files dated an hour back (as a checkout long untouched), built once. */
async function builtCopy(fixture = 'features') {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const file of readdirSync(content, { recursive: true, encoding: 'utf8' }))
    utimesSync(join(content, file), hourAgo, hourAgo);
  const first = await buildDirectory({ contentDir: content, outDir: out });
  expect(first.errors).toEqual([]);
  return { content, out };
}

function editFile(content: string, file: string, change: (text: string) => string): void {
  const path = join(content, file);
  const text = readFileSync(path, 'utf8');
  const changed = change(text);
  expect(changed).not.toBe(text);
  writeFileSync(path, changed);
}

/** The tree is byte for byte a full build's, and the build reported the full build's warnings. */
async function expectTreeOfContent(
  content: string,
  out: string,
  warnings?: readonly unknown[],
): Promise<void> {
  const full = await buildInMemory(content);
  const tree = readTree(out);
  expect([...tree.keys()].sort()).toEqual([...full.files.keys()].sort());
  for (const [path, text] of full.files) expect(tree.get(path), path).toBe(text);
  if (warnings) expect(warnings).toEqual(full.report.warnings);
}

const lowerCounter = (text: string) => text.replace('translated: 4\n', 'translated: 3\n');

describe('a build that finds its cache', () => {
  it('reads only what its cache cannot vouch for: a file of unchanged size and time is not read again', async () => {
    const { content, out } = await builtCopy();
    // Garbage of the same size, its time put back: a build that read it would fail on it.
    const docs = join(content, DOCS);
    const { size, atime, mtime } = statSync(docs);
    writeFileSync(docs, 'x'.repeat(size));
    utimesSync(docs, atime, mtime);
    editFile(content, STRINGS, lowerCounter);

    const report = await buildDirectory({ contentDir: content, outDir: out });
    expect(report).toMatchObject({ errors: [], mode: 'in-place', files: 8, groupsRendered: 6 });
    expect(
      readFileSync(join(out, 'api/translations/alpha/strings/cs/index.json'), 'utf8'),
    ).toContain('"translated":3,');
    // Without the cache the same content is refused: the cache vouched for the old docs.yaml.
    expect(
      (await buildDirectory({ contentDir: content, outDir: out, full: true })).errors,
    ).not.toEqual([]);
  });

  it('reads a file changed within two seconds of the listing that took its signature, whatever its size and time say', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
    await buildDirectory({ contentDir: content, outDir: out });
    // The same size, the same time: only the hash can tell.
    const strings = join(content, STRINGS);
    const { atime, mtime } = statSync(strings);
    editFile(content, STRINGS, lowerCounter);
    utimesSync(strings, atime, mtime);

    expect(await buildDirectory({ contentDir: content, outDir: out })).toMatchObject({
      errors: [],
      files: 8,
    });
    await expectTreeOfContent(content, out);
  });

  it.each([
    ['deleted', (file: string) => rmSync(file)],
    ['truncated', (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2))],
    ['corrupted', (file: string) => flipByte(file, 0.6)],
    ['corrupted in its first record', (file: string) => flipByte(file, 0.001)],
  ])('gives the same tree when the cache is %s', async (_, damage) => {
    const { content, out } = await builtCopy();
    editFile(content, STRINGS, lowerCounter);
    damage(join(stateDir(out), CACHE));
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    await expectTreeOfContent(content, out);
  });

  it.each([
    ['truncated', (file: string) => truncateSync(file, statSync(file).size - 3)],
    ['corrupted', (file: string) => flipByte(file, 0.5)],
    ['deleted', (file: string) => rmSync(file)],
  ])('gives the same tree when the journal of later builds is %s', async (_, damage) => {
    const { content, out } = await builtCopy();
    editFile(content, STRINGS, lowerCounter);
    await buildDirectory({ contentDir: content, outDir: out });
    editFile(content, DOCS, (t) => t.replace('  he:\n    id: 202\n', ''));
    damage(join(stateDir(out), JOURNAL));
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    await expectTreeOfContent(content, out);
  });

  it.each([
    ['deleted', (file: string) => rmSync(file)],
    ['truncated', (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2))],
    ['corrupted', (file: string) => flipByte(file, 0.5)],
  ])('gives the same tree when the index beside the manifest is %s', async (_, damage) => {
    const { content, out } = await builtCopy();
    editFile(content, STRINGS, lowerCounter);
    damage(join(stateDir(out), 'manifest.index'));
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    await expectTreeOfContent(content, out);
  });

  it('follows one build after another, each from the cache and its journal, as a full build would', async () => {
    const { content, out } = await builtCopy();
    const steps: [string, (content: string) => void][] = [
      ['a counter', (c) => editFile(c, STRINGS, lowerCounter)],
      [
        'a translation removed',
        (c) => editFile(c, DOCS, (t) => t.replace('  he:\n    id: 202\n', '')),
      ],
      [
        'a translation added',
        (c) =>
          editFile(c, STRINGS, (t) =>
            t.replace('translations:\n', 'translations:\n  fr: {translated: 2}\n'),
          ),
      ],
      [
        'a component added',
        (c) =>
          writeFileSync(
            join(c, 'projects/beta/components/extra.yaml'),
            'name: Extra\nsource_language: en\nrepo: x\nfilemask: "*.po"\nfile_format: po\ntranslations: {ja: {}}\n',
          ),
      ],
      [
        'the counter back',
        (c) => editFile(c, STRINGS, (t) => t.replace('translated: 3\n', 'translated: 4\n')),
      ],
      [
        'the added component removed',
        (c) => rmSync(join(c, 'projects/beta/components/extra.yaml')),
      ],
      [
        'a project renamed',
        (c) =>
          editFile(c, 'projects/alpha/project.yaml', (t) =>
            t.replace('name: Alpha', 'name: Alpha One'),
          ),
      ],
      [
        'a component edited after a full build',
        (c) => editFile(c, STRINGS, (t) => t.replace('locked: true', 'locked: false')),
      ],
    ];
    for (const [name, step] of steps) {
      step(content);
      const report = await buildDirectory({ contentDir: content, outDir: out });
      expect(report.errors, name).toEqual([]);
      expect(report.mode, name).toBe('in-place');
      await expectTreeOfContent(content, out, report.warnings);
    }
    expect(statSync(join(stateDir(out), JOURNAL)).size).toBeGreaterThan(0);
  });

  it('follows builds of the 2026.8 flavour from the cache: components inside categories, moved between them and out of them', async () => {
    const { content, out } = await builtCopy('current');
    const REFERENCE = 'projects/docs/components/reference.yaml';
    const steps: [string, (content: string) => void][] = [
      [
        'a counter three categories deep',
        (c) => editFile(c, REFERENCE, (t) => t.replace('translated: 1\n', 'translated: 2\n')),
      ],
      [
        'a counter of the new kind',
        (c) =>
          editFile(c, REFERENCE, (t) =>
            t.replace('translated_chars: 17\n', 'translated_chars: 17\n    approved_words: 1\n'),
          ),
      ],
      [
        'moved to another category',
        (c) => editFile(c, REFERENCE, (t) => t.replace('category: internals', 'category: guides')),
      ],
      [
        'moved out of every category',
        (c) => editFile(c, REFERENCE, (t) => t.replace('category: guides\n', '')),
      ],
      [
        'a category renamed (not a component file: the full build)',
        (c) =>
          editFile(c, 'projects/docs/categories/api.yaml', (t) =>
            t.replace('name: API', 'name: The API'),
          ),
      ],
    ];
    for (const [name, step] of steps) {
      step(content);
      const report = await buildDirectory({ contentDir: content, outDir: out });
      expect(report.errors, name).toEqual([]);
      expect(report.mode, name).toBe('in-place');
      await expectTreeOfContent(content, out, report.warnings);
    }
  });

  it('reports the warnings a full build reports, and with --strict leaves a file that earns one to the full build', async () => {
    const { content, out } = await builtCopy();
    // A count without its words, where the source has words: a warning.
    editFile(content, STRINGS, (t) =>
      t.replace('translations:\n', 'translations:\n  fr: {translated: 2}\n'),
    );
    const warned = await buildDirectory({ contentDir: content, outDir: out });
    expect(warned.warnings).not.toEqual([]);
    await expectTreeOfContent(content, out, warned.warnings);
    editFile(content, DOCS, (t) => t.replace('  he:\n    id: 202\n', ''));
    const again = await buildDirectory({ contentDir: content, outDir: out });
    expect(again).toMatchObject({ errors: [], mode: 'in-place' });
    await expectTreeOfContent(content, out, again.warnings);

    const strict = await buildDirectory({ contentDir: content, outDir: out, strict: true });
    expect(strict.errors).toEqual(warned.warnings);
  });

  it('with --strict, refuses a change that earns a warning, as a full build does', async () => {
    const { content, out } = await builtCopy();
    expect(
      (await buildDirectory({ contentDir: content, outDir: out, strict: true })).errors,
    ).toEqual([]);
    editFile(content, STRINGS, (t) =>
      t.replace('translations:\n', 'translations:\n  fr: {translated: 2}\n'),
    );
    const refused = await buildDirectory({ contentDir: content, outDir: out, strict: true });
    expect(refused.errors).toEqual((await buildInMemory(content)).report.warnings);
    expect(refused.errors).not.toEqual([]);
  });

  it('does not trust the cache once something else wrote the tree (here a session, as the sidecar and --watch keep)', async () => {
    const { content, out } = await builtCopy();
    const strings = join(content, STRINGS);
    const original = readFileSync(strings, 'utf8');
    const { atime, mtime } = statSync(strings);
    const opened = await Session.open({ contentDir: content, outDir: out });
    if (!opened.ok) throw new Error('the fixture does not open');
    expect(
      (await opened.session.update([{ path: STRINGS, text: lowerCounter(original) }])).ok,
    ).toBe(true);
    await opened.session.close();
    // The file put back exactly as the cache saw it: only the tree shows the session's change.
    writeFileSync(strings, original);
    utimesSync(strings, atime, mtime);

    expect(await buildDirectory({ contentDir: content, outDir: out })).toMatchObject({
      errors: [],
      files: 8,
    });
    await expectTreeOfContent(content, out);
  });

  it('reports content errors as a full build does, and uses the cache again once they are fixed', async () => {
    const { content, out } = await builtCopy();
    const before = readTree(out);
    editFile(content, STRINGS, (t) => t.replace('translated: 4\n', 'translated: -4\n'));
    const failed = await buildDirectory({ contentDir: content, outDir: out });
    expect(failed.errors).toContainEqual(
      expect.objectContaining({ file: join(content, STRINGS), path: 'translations.cs.translated' }),
    );
    expect(readTree(out)).toEqual(before);
    editFile(content, STRINGS, (t) => t.replace('translated: -4\n', 'translated: 3\n'));
    expect(await buildDirectory({ contentDir: content, outDir: out })).toMatchObject({
      errors: [],
      files: 8,
    });
    await expectTreeOfContent(content, out);
  });
});

describe('the model as the cache keeps it', () => {
  it.each(['features', 'minimal', 'query-pagination', 'current'])(
    'reads back as the model of fixture %s, with the versions of its objects',
    async (fixture) => {
      const opened = await openContent(join(FIXTURES, fixture, 'content'), {
        catalog: loadCatalog(),
      });
      if (!opened.ok) throw new Error('the fixture does not open');
      const { fingerprints, aggregates } = createContext(opened.model, createFingerprintCache());
      const decoded = decodeModel([...encodeModel(opened.model, fingerprints, aggregates)!]);
      expect(decoded.model).toEqual(opened.model);
      for (const t of decoded.model.translations)
        expect(decoded.fingerprints.translations.get(t)).toBe(fingerprints.translation(t));
      for (const c of decoded.model.components)
        expect(decoded.fingerprints.components.get(c)).toBe(fingerprints.component(c));
      // Each project's sums come back with it, the same as summing the decoded model again.
      const summed = aggregate(decoded.model);
      for (const project of decoded.model.projects) {
        const kept = decoded.fingerprints.aggregates.projects.get(project.components);
        expect(kept).toEqual({
          total: summed.project(project),
          languages: summed.projectLanguages(project),
        });
      }
    },
  );

  it('is not written for a text it cannot carry, and the build goes on without it', async () => {
    const { content, out } = await builtCopy();
    editFile(content, STRINGS, (t) =>
      t.replace('translations:\n', 'translations:\n  fr: {revision: "a\\0b"}\n'),
    );
    expect((await buildDirectory({ contentDir: content, outDir: out, full: true })).errors).toEqual(
      [],
    );
    expect(readdirSync(stateDir(out))).not.toContain(CACHE);
    await expectTreeOfContent(content, out);
  });
});

/** Flips the bits of one byte at a share of the file's length. */
function flipByte(file: string, share: number): void {
  const data = readFileSync(file);
  const at = Math.floor(data.length * share);
  data[at] = data[at]! ^ 0xff;
  writeFileSync(file, data);
}
