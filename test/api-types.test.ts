/**
 * The published types and schemas (issue 13: types of every object the API
 * serves, from the declared shapes). Every file of every golden tree fits the
 * schema of its resource kind, read byte for byte (an integer written `5.0`
 * or a float written `100` does not fit), and a body with a field renamed, a
 * type changed or a value added does not. The declarations compile with tsc,
 * run as a real process with the checks a reader's project would have; a
 * script that reads `translation.language.code` compiles (so does the example
 * of docs/types.md), and one that reads a field the flavour does not have
 * fails with the error naming it. `weblate-snapshot types` writes them, and
 * `--check` names the files that are not current.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeFiles } from '../src/api-types/files.ts';
import { matchApiSegments } from '../src/api/match.ts';
import type { WeblateVersion } from '../src/model/defaults.ts';
import { command } from '../scripts/types.ts';
import { readTree, ROOT, tempDir, writeFiles } from './helpers.ts';
import { validateText } from './support/json-schema.ts';
import { runCliBin } from './support/run-cli.ts';
import { runProgram } from './support/run-script.ts';

/** The flavour each golden tree speaks. */
const GOLDEN_FLAVOURS: Record<string, WeblateVersion> = {
  minimal: '4',
  features: '4',
  'query-pagination': '4',
  current: '2026.8',
  // The status site of the current fixture: no API files (its API is the "current" tree).
  'current-site': '2026.8',
  // Releases' goldens, in the shapes of their release.
  'release-4.14': '4',
  'release-4.18': '4',
  'release-5.10': '2026.8',
  'release-2026.11': '2026.8',
};

const files = typeFiles();
const schemaOf = (version: WeblateVersion, kind: string) => {
  const text = files.get(`schemas/${version}/${kind}.schema.json`);
  if (text === undefined) throw new Error(`no schema of ${kind} in the ${version} flavour`);
  return JSON.parse(text) as Record<string, unknown>;
};

describe('the JSON Schemas', () => {
  it('cover every golden tree', () => {
    expect(readdirSync(join(ROOT, 'test/golden')).sort()).toEqual(
      Object.keys(GOLDEN_FLAVOURS).sort(),
    );
  });

  it.each(Object.entries(GOLDEN_FLAVOURS))(
    'hold for every file of the golden tree "%s"',
    (scenario, version) => {
      const failures: string[] = [];
      for (const path of apiFiles(scenario)) {
        const kind = kindOf(path, version);
        const errors = validateText(
          readFileSync(join(ROOT, 'test/golden', scenario, path), 'utf8'),
          schemaOf(version, kind),
        );
        failures.push(...errors.map((error) => `${scenario}/${path} (${kind}) ${error}`));
      }
      expect(failures).toEqual([]);
    },
  );

  it('are each met by some golden file, so none goes unchecked', () => {
    const met = new Set<string>();
    for (const [scenario, version] of Object.entries(GOLDEN_FLAVOURS)) {
      for (const path of apiFiles(scenario))
        met.add(`schemas/${version}/${kindOf(path, version)}.schema.json`);
    }
    // The schemas of the releases between the flavours: test/regressions/issue-25-types-per-release.test.ts.
    const flavours = new Set<string>(Object.values(GOLDEN_FLAVOURS));
    expect(
      [...files.keys()].filter(
        (path) =>
          path.startsWith('schemas/') && flavours.has(path.split('/')[1]!) && !met.has(path),
      ),
    ).toEqual([]);
  });

  const golden = (path: string) => readFileSync(join(ROOT, 'test/golden', path), 'utf8');
  const translation = golden('minimal/api/translations/hello/app/cs/index.json');
  const statistics = golden('minimal/api/translations/hello/app/cs/statistics/index.json');
  const projectLanguages = golden('minimal/api/projects/hello/languages/index.json');

  it.each([
    [
      'a renamed field',
      translation,
      '"language_code":',
      '"language_kode":',
      ['$: missing "language_code"', '$: unexpected "language_kode"'],
    ],
    [
      'a number turned into a string',
      translation,
      /"total":(\d+)/,
      '"total":"$1"',
      [/^\$\.total: expected integer, got "\d+"$/],
    ],
    [
      'an integer written as a float',
      translation,
      /"total":(\d+)/,
      '"total":$1.0',
      [/^\$\.total: expected integer, got \d+\.0$/],
    ],
    [
      'a float written as an integer',
      statistics,
      /"translated_percent":(\d+)\.0/,
      '"translated_percent":$1',
      [/translated_percent: expected number/],
    ],
    [
      'a null where none may be',
      translation,
      /"filename":"[^"]*"/,
      '"filename":null',
      ['$.filename: expected string, got null'],
    ],
    [
      'a field renamed in a nested object',
      translation,
      '"direction":',
      '"dir":',
      [/^\$\.language: missing "direction"$/, /unexpected "dir"/],
    ],
    ['a field added at the end', translation, /}\n$/, ',"extra":1}\n', ['$: unexpected "extra"']],
    [
      'a 2026.8 field in a 4.x body',
      translation,
      /}\n$/,
      ',"announcements_url":"https://x/"}\n',
      ['$: unexpected "announcements_url"'],
    ],
    [
      'a name where 4.x writes language',
      projectLanguages,
      '"language":',
      '"name":',
      [/missing "language"/, /unexpected "name"/],
    ],
  ])('reject %s', (_, text, pattern, replacement, expected) => {
    const mutated = text.replace(pattern, replacement);
    expect(mutated).not.toBe(text);
    const kind =
      text === statistics
        ? 'translation-statistics'
        : text === translation
          ? 'translation'
          : 'project-languages';
    const errors = validateText(mutated, schemaOf('4', kind));
    expect(errors).toEqual(
      expected.map((item) => (typeof item === 'string' ? item : expect.stringMatching(item))),
    );
  });

  it('reject an item in a list a snapshot holds empty, and any file that is not JSON', () => {
    const users = golden('minimal/api/users/index.json');
    expect(
      validateText(users.replace('"results":[]', '"results":[{}]'), schemaOf('4', 'users')),
    ).toEqual(['$.results[0]: no value is allowed here']);
    expect(() => validateText(users.replace('}', ''), schemaOf('4', 'users'))).toThrow(
      /invalid JSON/,
    );
  });

  it('are closed objects that require every field, in the order the files hold them', () => {
    const schema = schemaOf('2026.8', 'category') as {
      $ref: string;
      $defs: Record<string, Record<string, unknown>>;
    };
    expect(schema.$ref).toBe('#/$defs/Category');
    const category = schema.$defs.Category!;
    expect(category.additionalProperties).toBe(false);
    expect(category.required).toEqual(Object.keys(category.properties as object));
    const body = golden('current/api/categories/5/index.json');
    expect(Object.keys(JSON.parse(body) as object)).toEqual(category.required);
  });
});

describe('the TypeScript declarations', () => {
  it('compile, and type a script that reads the right fields and not one that reads others', async () => {
    const dir = tempDir('wsnap-types-');
    const docs = readFileSync(join(ROOT, 'docs/types.md'), 'utf8');
    writeFiles(dir, {
      'weblate/api-4.d.ts': files.get('api-4.d.ts')!,
      'weblate/api-2026.8.d.ts': files.get('api-2026.8.d.ts')!,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          module: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
        },
        include: ['*.ts', 'weblate/*.ts'],
      }),
      'reads.ts': READS,
      'misreads.ts': MISREADS,
      'docs-example.ts': /```ts\n(import type[\s\S]*?)```/.exec(docs)![1]!,
    });
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await runProgram(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], {
      cwd: dir,
    });
    const diagnostics = result.stdout.split('\n').filter((line) => /^[\w.-]+\.ts\(/.test(line));
    expect(diagnostics).toEqual([
      "misreads.ts(4,97): error TS2339: Property 'name' does not exist on type 'ProjectLanguage'.",
      "misreads.ts(5,80): error TS2339: Property 'kode' does not exist on type 'Language'.",
      "misreads.ts(6,61): error TS2322: Type 'string | null' is not assignable to type 'string'.",
      "misreads.ts(7,76): error TS2339: Property 'category' does not exist on type 'Component'.",
      "misreads.ts(8,102): error TS2339: Property 'language' does not exist on type 'TranslationStatistics'.",
    ]);
    expect(result.code).toBe(2);
  });
});

describe('weblate-snapshot types', () => {
  it('writes every file into --out, and --check says whether a folder is current', async () => {
    const dir = tempDir('wsnap-types-');
    const written = await runCliBin(['types', '--out', dir]);
    expect(written).toMatchObject({
      code: 0,
      stdout: `Wrote ${files.size} files to ${dir}/ (0 files already current).\n`,
    });
    expect(readTree(dir)).toEqual(files);

    const check = async () => {
      const out: string[] = [];
      const code = await command.run(
        { out: dir, check: true },
        { out: (t) => out.push(t), err: (t) => out.push(t), interactive: false, env: {} },
      );
      return { code, text: out.join('') };
    };
    expect(await check()).toEqual({ code: 0, text: `${dir}/ is current: ${files.size} files.\n` });
    writeFileSync(
      join(dir, 'api-4.d.ts'),
      files.get('api-4.d.ts')!.replace('language: string;', 'name: string;'),
    );
    rmSync(join(dir, 'schemas/2026.8/category.schema.json'));
    const stale = await check();
    expect(stale.code).toBe(1);
    expect(stale.text).toContain(
      `${dir}/ is not current: api-4.d.ts differs, schemas/2026.8/category.schema.json is missing.`,
    );
    expect(readdirSync(join(dir, 'schemas/2026.8'))).not.toContain('category.schema.json');
    const io = { out: () => {}, err: () => {}, interactive: false, env: {} };
    await expect(command.run({ out: join(dir, 'api-4.d.ts'), check: false }, io)).rejects.toThrow(
      /api-4\.d\.ts is a file; give a folder/,
    );
  });
});

// --- internal ---

/** A reader's script: every line fits the flavour it imports. */
const READS = `import type { Paginated, ProjectLanguage, Resources, Translation } from './weblate/api-4.js';
import type * as Current from './weblate/api-2026.8.js';

export const code = (translation: Translation): string => translation.language.code;
export const names = (languages: Resources['project-languages']): string[] => languages.map((entry: ProjectLanguage) => entry.language);
export const percents = (page: Paginated<Translation>): number[] => page.results.map((t) => t.translated_percent);
export const next = (page: Resources['projects']): string | null => page.next;
export const category = (component: Current.Component): string | null => component.category;
export const languages = (list: Current.Resources['project-languages']): string[] => list.map((entry) => entry.name);
export const empty = (page: Current.Resources['project-announcements']): never[] => page.results;
export const lock: Current.Resources['project-lock'] = { locked: false };
`;

/** The same script with a field each flavour does not have, or a null it forgets. */
const MISREADS = `import type { Component, ProjectLanguage, Translation } from './weblate/api-4.js';
import type * as Current from './weblate/api-2026.8.js';

export const names = (languages: ProjectLanguage[]): string[] => languages.map((entry) => entry.name);
export const code = (translation: Translation): string => translation.language.kode;
export const author = (translation: Translation): string => translation.last_author;
export const category = (component: Component): string | null => component.category;
export const languages = (list: Current.Resources['project-languages']) => list.map((entry) => entry.language);
`;

/** The API files of a golden tree, as its FILES.txt lists them (the files the build writes): `api/projects/index.json`. */
function apiFiles(scenario: string): string[] {
  const listed = readFileSync(join(ROOT, 'test/golden', scenario, 'FILES.txt'), 'utf8').split('\n');
  return listed.filter((path) => path.startsWith('api/') && path.endsWith('/index.json'));
}

/** The resource kind of a file of a tree, from its path (`api/projects/demo/index.json` → project). */
function kindOf(path: string, version: WeblateVersion): string {
  const segments = path.split('/').slice(1, -1);
  const match = matchApiSegments(segments, version);
  if (!match) throw new Error(`no route of the ${version} flavour for ${path}`);
  return match.route.kind;
}
