/**
 * The fast path for component edits (content/patch.ts) against the full
 * path: for random sequences of edits, a session accepts exactly the edits
 * that a full check of the edited content accepts, and its tree is then the
 * tree of a full build, byte for byte.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { openContent } from '../src/resolve/open.ts';
import { Session, type ContentChange } from '../src/session/session.ts';
import { buildInMemory, FIXTURES, readTree, tempDir, writeFiles } from './helpers.ts';

type Doc = Record<string, any>;

/** Edits of component files, as functions of the current files (path → parsed YAML). */
const edits: Record<
  string,
  (files: Map<string, Doc>, pick: (n: number) => number) => ContentChange[]
> = {
  counter: (files, pick) => {
    const [path, doc] = pickComponent(files, pick);
    const code = pickKey(doc.translations, pick);
    if (!code) return [];
    const entry = (doc.translations[code] ??= {});
    entry.translated = Math.max(0, (entry.translated ?? 0) + (pick(2) ? 1 : -1));
    return [change(path, doc)];
  },
  removeTranslation: (files, pick) => {
    const [path, doc] = pickComponent(files, pick);
    const code = pickKey(doc.translations, pick);
    if (!code) return [];
    delete doc.translations[code];
    return [change(path, doc)];
  },
  addTranslation: (files, pick) => {
    const [path, doc] = pickComponent(files, pick);
    const code = ['fr', 'ja', 'pt_BR', 'sr@latin', 'xx_unknown', 'eo'][pick(6)]!;
    doc.translations = {
      ...(doc.translations ?? {}),
      [code]: { translated: 0, ...(pick(3) === 0 ? { id: 100 } : {}) },
    };
    return [change(path, doc)];
  },
  addComponent: (files, pick) => {
    const [, doc] = pickComponent(files, pick);
    const copy: Doc = { ...doc, name: `Copy ${pick(1000)}` };
    delete copy.id;
    if (copy.translations)
      copy.translations = Object.fromEntries(
        Object.keys(copy.translations).map((code) => [code, {}]),
      );
    const project = pick(2) ? 'alpha' : 'beta';
    return [change(`projects/${project}/components/copy-${pick(3)}.yaml`, copy)];
  },
  removeComponent: (files, pick) => {
    const [path] = pickComponent(files, pick);
    return [{ path, text: null }];
  },
  repository: (files, pick) => {
    const [path, doc] = pickComponent(files, pick);
    doc.repo = [
      'weblate://alpha/strings',
      'weblate://alpha/shared',
      'https://git.example.org/other.git',
    ][pick(3)];
    if (pick(2)) doc.branch = `branch-${pick(3)}`;
    return [change(path, doc)];
  },
  fields: (files, pick) => {
    const [path, doc] = pickComponent(files, pick);
    doc.locked = !doc.locked;
    if (pick(2)) doc.links = pick(2) ? ['beta'] : [];
    if (pick(3) === 0) doc.id = [10, 11, 20, 999][pick(4)];
    return [change(path, doc)];
  },
};

// Seeded, so that each run tries the same sequences; PATCH_RUNS and PATCH_SEED explore more.
describe.each([
  ['without the status site', false, 12],
  ['with the status site (pages, badges, exports)', true, 8],
])('the fast path for component edits, %s', (_, pages, runs) => {
  it(
    'accepts what the full check accepts and builds what a full build builds',
    { timeout: 300_000 },
    async () => {
      const names = Object.keys(edits);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(
              fc.constantFrom(...names),
              fc.array(fc.nat(999), { minLength: 8, maxLength: 8 }),
            ),
            {
              minLength: 1,
              maxLength: 6,
            },
          ),
          async (steps) => {
            const dir = tempDir();
            const content = join(dir, 'content');
            cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
            if (pages) appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
            const opened = await Session.open({ contentDir: content, outDir: join(dir, 'dist') });
            if (!opened.ok) throw new Error('fixture does not open');
            for (const [name, numbers] of steps) {
              let i = 0;
              const pick = (n: number) => numbers[i++ % numbers.length]! % n;
              const changes = edits[name]!(componentFiles(content), pick);
              if (changes.length === 0) continue;
              const expected = await fullCheck(content, changes);
              const before = readTree(join(dir, 'dist'));
              const result = await opened.session.update(changes);
              expect(
                result.ok,
                `${name}: ${JSON.stringify(result.ok ? '' : result.errors.map((e) => e.message))}`,
              ).toBe(expected);
              if (result.ok) {
                const full = await buildInMemory(content);
                const tree = readTree(join(dir, 'dist'));
                expect([...tree.keys()].sort()).toEqual([...full.files.keys()].sort());
                for (const [path, text] of full.files)
                  expect(tree.get(path), `${name}: ${path}`).toBe(text);
              } else {
                expect(readTree(join(dir, 'dist'))).toEqual(before);
              }
            }
            await opened.session.close();
          },
        ),
        {
          seed: Number(process.env.PATCH_SEED ?? 20261122),
          numRuns: Number(process.env.PATCH_RUNS ?? runs),
        },
      );
    },
  );
});

// --- helpers ---

function componentFiles(content: string): Map<string, Doc> {
  const files = new Map<string, Doc>();
  for (const project of readdirSync(join(content, 'projects')).sort()) {
    const folder = join(content, 'projects', project, 'components');
    for (const name of readdirSync(folder).sort()) {
      files.set(
        `projects/${project}/components/${name}`,
        parse(readFileSync(join(folder, name), 'utf8')) as Doc,
      );
    }
  }
  return files;
}

function pickComponent(files: Map<string, Doc>, pick: (n: number) => number): [string, Doc] {
  const entries = [...files];
  return entries[pick(entries.length)]!;
}

function pickKey(
  map: Record<string, unknown> | undefined,
  pick: (n: number) => number,
): string | undefined {
  const keys = Object.keys(map ?? {});
  return keys.length === 0 ? undefined : keys[pick(keys.length)];
}

function change(path: string, doc: Doc): ContentChange {
  return { path, text: stringify(doc) };
}

/** Whether the full check accepts the content with the changes applied (on a copy). */
async function fullCheck(content: string, changes: ContentChange[]): Promise<boolean> {
  const copy = join(tempDir(), 'content');
  cpSync(content, copy, { recursive: true });
  writeFiles(
    copy,
    Object.fromEntries(changes.filter((c) => c.text !== null).map((c) => [c.path, c.text!])),
  );
  for (const { path, text } of changes)
    if (text === null) rmSync(join(copy, path), { force: true });
  return (await openContent(copy)).ok;
}
