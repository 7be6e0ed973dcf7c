/** A session kept open: edits validated, applied one at a time, content and tree updated together. */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { buildDirectory } from '../src/build.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../src/session/session.ts';
import { buildInMemory, FIXTURES, readTree, tempDir } from './helpers.ts';

async function openCopy() {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
  const opened = await Session.open({ contentDir: content, outDir: out });
  if (!opened.ok) throw new Error('fixture does not open');
  return { session: opened.session, content, out };
}

async function expectTreeOfContent(content: string, out: string) {
  const full = await buildInMemory(content);
  const tree = readTree(out);
  expect([...tree.keys()].sort()).toEqual([...full.files.keys()].sort());
  for (const [path, text] of full.files) expect(tree.get(path), path).toBe(text);
}

describe('Session', () => {
  it('applies a valid change to the content file and the tree', async () => {
    const { session, content, out } = await openCopy();
    const path = 'languages/de.yaml';
    const text = (await session.readContent(path))!.replace('German (Germany)', 'Deutsch');
    const result = await session.update([{ path, text }]);
    expect(result.ok).toBe(true);
    expect(readFileSync(join(content, path), 'utf8')).toBe(text);
    expect(JSON.parse(readFileSync(join(out, 'api/languages/de/index.json'), 'utf8')).name).toBe(
      'Deutsch',
    );
    await expectTreeOfContent(content, out);
  });

  it('refuses a change that makes the content invalid, and writes nothing', async () => {
    const { session, content, out } = await openCopy();
    const before = readTree(out);
    const path = 'projects/alpha/project.yaml';
    const original = readFileSync(join(content, path), 'utf8');
    const result = await session.update([{ path, text: 'name: ""\n' }]);
    expect(result).toEqual({
      ok: false,
      errors: [expect.objectContaining({ path: 'name', line: 1, column: 7 })],
    });
    expect(readFileSync(join(content, path), 'utf8')).toBe(original);
    expect(readTree(out)).toEqual(before);
  });

  it('runs concurrent read-modify-write edits one after the other, losing none', async () => {
    const { session, content, out } = await openCopy();
    const path = 'languages/de.yaml';
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        session.edit(async ({ read }) => {
          const text = (await read(path))!;
          const population = Number(/population: (\d+)/.exec(text)![1]) + 1;
          return {
            changes: [{ path, text: text.replace(/population: \d+/, `population: ${population}`) }],
            result: i,
          };
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill('applied'));
    expect(readFileSync(join(content, path), 'utf8')).toContain('population: 80000010');
    await expectTreeOfContent(content, out);
  });

  it('hands back the model as it stood right after the edit, whatever edits follow', async () => {
    const { session } = await openCopy();
    const rename = (name: string) =>
      session.edit(async ({ read }) => {
        const text = (await read('languages/de.yaml'))!.replace(/^name: .*$/m, `name: ${name}`);
        return { changes: [{ path: 'languages/de.yaml', text }], result: name };
      });
    const [first, second] = await Promise.all([rename('Erste'), rename('Zweite')]);
    const nameIn = (outcome: typeof first) =>
      outcome.status === 'applied'
        ? outcome.model.languages.find((l) => l.code === 'de')!.name
        : null;
    expect([nameIn(first), nameIn(second)]).toEqual(['Erste', 'Zweite']);
    expect(session.model.languages.find((l) => l.code === 'de')!.name).toBe('Zweite');
  });

  it('passes a refusal back without writing', async () => {
    const { session } = await openCopy();
    expect(await session.edit(() => ({ refuse: 'no' }))).toEqual({
      status: 'refused',
      result: 'no',
    });
  });

  it('keeps the host files a tree was built with', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
    await buildDirectory({ contentDir: content, outDir: out, host: 'netlify' });
    const opened = await Session.open({ contentDir: content, outDir: out });
    if (!opened.ok) throw new Error('fixture does not open');
    // A language change goes through the full path, which writes host files too.
    expect(
      (await opened.session.update([{ path: 'languages/eo.yaml', text: 'population: 5\n' }])).ok,
    ).toBe(true);
    await opened.session.close();
    expect(readFileSync(join(out, '_redirects'), 'utf8')).toBe(
      readFileSync(join(out, 'hosts/netlify/_redirects'), 'utf8'),
    );
  });

  it('removes temporary files a crash left in the content folder', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
    writeFileSync(join(content, 'languages/.de.yaml.tmp-0a1b2c'), 'half');
    const opened = await Session.open({ contentDir: content, outDir: join(dir, 'dist') });
    expect(opened.ok).toBe(true);
    expect(existsSync(join(content, 'languages/.de.yaml.tmp-0a1b2c'))).toBe(false);
  });

  it('reopens a tree it left and finds nothing to do', async () => {
    const { session, content, out } = await openCopy();
    await session.update([{ path: 'languages/eo.yaml', text: null }]);
    await session.close();
    const reopened = await Session.open({ contentDir: content, outDir: out });
    expect(reopened.ok).toBe(true);
    await expectTreeOfContent(content, out);
  });
});
