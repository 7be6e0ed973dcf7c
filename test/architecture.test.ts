/**
 * The layout of docs/architecture.md, held against the code: layers only point down (a module
 * imports from its own folder or from a folder below it), no import cycles between files, every
 * name a module exports is imported by another file, and each module the page's walks name is
 * on the import path of that walk's command. Imports are read from the source text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.ts';

/** From the bottom up: each entry may import from the entries before it (and from itself). */
const LAYERS = [
  ['src/errors.ts', 'src/pool.ts', 'src/package-files.ts', 'src/heap.ts', 'src/threads.ts'],
  ['src/output/'],
  ['src/model/'],
  ['src/catalog/'],
  ['src/content/'],
  ['src/resolve/'],
  ['src/api/'],
  ['src/status-site/'],
  ['src/api-types/'],
  ['src/hosts/'],
  ['src/tree/'],
  ['src/cache/'],
  ['src/build.ts'],
  ['src/http/'],
  ['src/session/'],
  ['src/preview/'],
  ['src/sidecar/'],
  ['src/pull/'],
  ['src/deploy/'],
  ['src/mirror/'],
  ['src/cli/'],
  ['bench/'],
  ['scripts/'],
];

const files = [...sourceFiles('src'), ...sourceFiles('scripts'), ...sourceFiles('bench')];
const imports = new Map(files.map((file) => [file, importsOf(file)]));
/** Tests count as importers: a module may export what its tests call. */
const testImports = sourceFiles('test').map(importsOf);

describe('the layout', () => {
  it('places every source file in a layer', () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('has every import point down or within its own folder', () => {
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      for (const { target } of targets) {
        if (!isSource(target) || sameHome(file, target)) continue;
        if (layerOf(target) >= layerOf(file)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(findCycles()).toEqual([]);
  });

  it('exports only what another file imports', () => {
    const used = new Set<string>();
    for (const targets of [...imports.values(), ...testImports])
      for (const { target, names } of targets)
        for (const name of names) used.add(`${target}#${name}`);
    const unused: string[] = [];
    for (const file of files.filter((f) => f.startsWith('src/') || f.startsWith('bench/'))) {
      for (const name of exportsOf(file))
        if (!used.has(`${file}#${name}`)) unused.push(`${file}#${name}`);
    }
    expect(unused).toEqual([]);
  });
});

describe('the walks of docs/architecture.md', () => {
  const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

  it.each([
    ['One build, step by step', 'scripts/build.ts'],
    ['One sidecar write, step by step', 'scripts/sidecar.ts'],
  ])('names in "%s" only modules that %s imports', (heading, entry) => {
    const named = modulesNamed(sectionOf(page, heading));
    expect(named.length).toBeGreaterThan(10);
    const reached = importClosure(entry);
    const stray = named.filter(({ file, name }) => {
      if (!reached.has(file)) return true;
      return name !== undefined && !exportsOf(file).includes(name);
    });
    expect(stray.map(({ text }) => text)).toEqual([]);
  });
});

// --- internal ---

/** The text of a `## heading` section of a Markdown page. */
function sectionOf(page: string, heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, `no section "${heading}"`).toBeGreaterThan(0);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** Every `folder/file.ts` or `folder/file.ts#name` a walk names, as a source path. */
function modulesNamed(text: string): { text: string; file: string; name?: string }[] {
  return [...text.matchAll(/`([\w./-]+\.ts)(?:#(\w+))?`/g)].map((match) => {
    const path = match[1]!;
    const file = /^(scripts|bench)\//.test(path) ? path : `src/${path}`;
    return { text: match[0], file, name: match[2] };
  });
}

/** The files a module reaches through its imports, itself included. */
function importClosure(entry: string): Set<string> {
  const reached = new Set([entry]);
  for (const file of reached)
    for (const { target } of imports.get(file) ?? []) if (imports.has(target)) reached.add(target);
  return reached;
}

interface Import {
  target: string;
  names: string[];
}

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) out.push(path);
    }
  };
  walk(folder);
  return out;
}

/** Every relative import of a file, also those of test files (which import names they test). */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: Import[] = [];
  const pattern =
    /(?:import|export)\s+(?:type\s+)?(?:\{([^}]*)\}\s+from\s+|[\w*\s,{}]*?from\s+)?'(\.{1,2}\/[^']+)'|(?:\{([^}]*)\}\s*=\s*await\s+)?import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const spec = match[2] ?? match[4]!;
    const target = normalize(join(dirname(file), spec));
    // `const { a, b } = await import('./x.ts')` names what it uses, as a static import does.
    const names = (match[1] ?? match[3] ?? '')
      .split(',')
      .map((item) =>
        item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter(Boolean);
    found.push({ target, names });
  }
  return found;
}

function exportsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [
    ...text.matchAll(
      /^export\s+(?:async\s+)?(?:function\*?|interface|type|const|let|class|enum)\s+([A-Za-z0-9_$]+)/gm,
    ),
  ].map((m) => m[1]!);
}

function layerOf(file: string): number {
  return LAYERS.findIndex((layer) =>
    layer.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry)),
  );
}

function isSource(file: string): boolean {
  return /^(src|scripts|bench)\//.test(file);
}

function sameHome(a: string, b: string): boolean {
  return layerOf(a) === layerOf(b) && dirname(a) === dirname(b);
}

/** Each cycle once, as the list of its files. */
function findCycles(): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target } of imports.get(file) ?? []) {
      if (!imports.has(target)) continue;
      if (state.get(target) === 'open')
        cycles.push(stack.slice(stack.indexOf(target)).map((f) => relative('.', f)));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}
