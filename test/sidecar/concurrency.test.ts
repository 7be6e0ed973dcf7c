/**
 * Many writes at once against the real process: 50 PATCH requests to 50
 * languages, then 50 to one language, with reads running between them. Every
 * update answered 200 must be in the final content, no read may see a broken
 * file, and the tree must end as a fresh build of the content.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, writeFiles } from '../helpers.ts';
import {
  call,
  expectTreeOfContent,
  JSON_BODY,
  startSidecar,
  type RunningSidecar,
  type Workspace,
} from './support.ts';

/** Fifty catalog codes of two or three letters, English aside. */
function catalogCodes(count: number): string[] {
  const catalog = JSON.parse(readFileSync(join(ROOT, 'data/languages/catalog.json'), 'utf8')) as {
    languages: [string][];
  };
  return catalog.languages
    .map(([code]) => code)
    .filter((code) => /^[a-z]{2,3}$/.test(code) && code !== 'en')
    .slice(0, count);
}

/** One project, one component translated into every code. */
function manyLanguages(codes: string[]): Workspace {
  const dir = tempDir('wsnap-sidecar-');
  const content = join(dir, 'content');
  const translations = codes.map((code, i) => `  ${code}: {translated: ${i % 10}}\n`).join('');
  writeFiles(content, {
    'site.yaml': 'base_url: https://l10n.example.org\npage_size: 20\n',
    'projects/demo/project.yaml': 'name: Demo\n',
    'projects/demo/components/app.yaml':
      '# Fifty translations, one per language.\nname: App\nsource_language: en\nrepo: https://git.example.org/app.git\n' +
      `filemask: po/*.po\nfile_format: po\nsource: {total: 10, total_words: 50}\ntranslations:\n${translations}`,
  });
  return { dir, content, out: join(dir, 'dist') };
}

describe('concurrent writes', () => {
  const codes = catalogCodes(50);
  const space = manyLanguages(codes);
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());
  const patch = (code: string, body: object) =>
    call(`${sidecar.api}languages/${code}/`, 'PATCH', body, JSON_BODY);

  it('applies 50 PATCH requests to 50 languages, each answered with its own change, none lost', async () => {
    expect(codes).toHaveLength(50);
    const served = await Promise.all(
      codes.map((code, i) => patch(code, { name: `Name of ${code}`, population: 1000 + i })),
    );
    served.forEach((answer, i) => {
      expect(answer.status, codes[i]).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({
        code: codes[i],
        name: `Name of ${codes[i]}`,
        population: 1000 + i,
      });
    });
    codes.forEach((code, i) => {
      const file = parseYaml(readFileSync(join(space.content, `languages/${code}.yaml`), 'utf8'));
      expect(file, code).toEqual({ name: `Name of ${code}`, population: 1000 + i });
    });
    await expectTreeOfContent(space);
  });

  it('applies 50 PATCH requests to one language one after another: each answer shows its edit, the file ends as one of them with both fields', async () => {
    const code = codes[0]!;
    const bodies = (i: number) => (i % 2 === 0 ? { name: `Name ${i}` } : { population: i });
    const served = await Promise.all(Array.from({ length: 50 }, (_, i) => patch(code, bodies(i))));
    const states = served.map((answer, i) => {
      expect(answer.status, String(i)).toBe(200);
      const state = JSON.parse(answer.text) as { name: string; population: number };
      expect(state).toMatchObject(bodies(i));
      return `${state.name}|${state.population}`;
    });
    const file = parseYaml(readFileSync(join(space.content, `languages/${code}.yaml`), 'utf8')) as {
      name: string;
      population: number;
    };
    // Each answer shows the language right after its own edit; the final file is the state after one of them.
    expect(states).toContain(`${file.name}|${file.population}`);
    expect(file.name).toMatch(/^Name \d*[02468]$/);
    expect(file.population % 2).toBe(1);
    expect(new Set(states).size).toBe(50);
    await expectTreeOfContent(space);
  });

  it('keeps answering reads, with whole JSON, while writes wait in the queue', async () => {
    let pending = 30;
    const writes = Promise.all(
      Array.from({ length: pending }, (_, i) =>
        patch(codes[i % codes.length]!, { population: 5000 + i }).then((answer) => {
          pending--;
          return answer.status;
        }),
      ),
    );
    const paths = [
      '',
      'languages/',
      'languages/?page=2',
      `languages/${codes[1]}/`,
      'translations/',
      'components/demo/app/statistics/',
      `languages/${codes[2]}/statistics/`,
    ];
    let readsWhileWriting = 0;
    for (let i = 0; i < 300 && (pending > 0 || i < paths.length); i++) {
      const path = paths[i % paths.length]!;
      const served = await call(sidecar.api + path);
      expect(served.status, path).toBe(200);
      expect(() => JSON.parse(served.text), path).not.toThrow();
      if (pending > 0) readsWhileWriting++;
    }
    expect(await writes).toEqual(Array(30).fill(200));
    expect(readsWhileWriting).toBeGreaterThan(0);
    await expectTreeOfContent(space);
  });
});
