import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  checkOutputFolder,
  pulledMarker,
  renderContentFile,
  writeContentFiles,
} from '../../../src/pull/write.ts';
import { STATE_FILE } from '../../../src/pull/state.ts';
import { readTree, tempDir, writeFiles } from '../../helpers.ts';

describe('renderContentFile', () => {
  it('writes the fields in their order, a comment above them, and reads back the same values', () => {
    const value = {
      name: 'Android app',
      id: 12,
      repo: 'local:',
      enforced_checks: ['same'],
      commit_message:
        'Translated using Weblate ({{ language_name }})\n\nCurrently translated at {{ stats.translated_percent }}%\n',
      translations: {
        no: { last_change: '2024-05-02T10:20:05.499000Z', last_author: 'Jana Nováková' },
      },
    };
    const text = renderContentFile({ path: 'x.yaml', value, comment: 'First line\nsecond line' });
    expect(text.startsWith('# First line\n# second line\nname: Android app\nid: 12\n')).toBe(true);
    expect(parse(text)).toEqual(value);
  });

  it('writes an empty map as {}', () => {
    expect(renderContentFile({ path: 'languages/eo.yaml', value: {} })).toBe('{}\n');
  });
});

describe('checkOutputFolder', () => {
  it('accepts a missing folder, an empty one, an interrupted pull and an earlier pull', async () => {
    const dir = tempDir();
    expect(await checkOutputFolder(join(dir, 'missing'))).toEqual({ ok: true });
    mkdirSync(join(dir, 'empty'));
    expect(await checkOutputFolder(join(dir, 'empty'))).toEqual({ ok: true });
    writeFiles(join(dir, 'resume'), { [STATE_FILE]: '' });
    expect(await checkOutputFolder(join(dir, 'resume'))).toEqual({ ok: true });
    writeFiles(join(dir, 'earlier'), {
      'site.yaml': `# ${pulledMarker('https://x/api/')}\nbase_url: https://x\n`,
    });
    expect(await checkOutputFolder(join(dir, 'earlier'))).toEqual({ ok: true });
  });

  it('refuses a folder of other content, and a file', async () => {
    const dir = tempDir();
    writeFiles(join(dir, 'content'), { 'site.yaml': 'base_url: https://x\n' });
    expect(await checkOutputFolder(join(dir, 'content'))).toEqual({
      ok: false,
      message: `${join(dir, 'content')} is not empty and was not written by a pull; give a new or empty folder with --out.`,
    });
    writeFileSync(join(dir, 'file'), '');
    expect(await checkOutputFolder(join(dir, 'file'))).toMatchObject({ ok: false });
  });
});

describe('writeContentFiles', () => {
  it('writes every file and removes content files an earlier pull left that the new one lacks', async () => {
    const out = join(tempDir(), 'mirror');
    writeFiles(out, {
      'site.yaml': 'old\n',
      'languages/eo.yaml': '{}\n',
      'projects/gone/project.yaml': 'name: Gone\n',
      'projects/gone/components/app.yaml': 'name: App\n',
      'projects/kept/components/old.yaml': 'name: Old\n',
      'notes.txt': 'not content: kept',
    });
    const result = await writeContentFiles(
      out,
      [
        { path: 'site.yaml', value: { base_url: 'https://x' } },
        { path: 'projects/kept/project.yaml', value: { name: 'Kept' } },
      ],
      ['projects/kept/components/old.yaml'],
    );
    expect(result).toEqual({
      written: ['projects/kept/project.yaml', 'site.yaml'],
      unchanged: 0,
      removed: 3,
    });
    expect([...readTree(out).keys()]).toEqual([
      'notes.txt',
      'projects/kept/components/old.yaml',
      'projects/kept/project.yaml',
      'site.yaml',
    ]);
    expect(readFileSync(join(out, 'site.yaml'), 'utf8')).toBe('base_url: https://x\n');
    expect(existsSync(join(out, 'projects/gone'))).toBe(false);
    expect(readdirSync(join(out, 'projects/kept')).filter((name) => name.startsWith('.'))).toEqual(
      [],
    );
  });

  it('leaves a file whose text is already the one to write as it is (its time too)', async () => {
    const out = join(tempDir(), 'mirror');
    const files = [{ path: 'site.yaml', value: { base_url: 'https://x' } }];
    await writeContentFiles(out, files);
    const before = statSync(join(out, 'site.yaml'), { bigint: true });
    expect(await writeContentFiles(out, files)).toEqual({ written: [], unchanged: 1, removed: 0 });
    const after = statSync(join(out, 'site.yaml'), { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);
  });

  it('refuses a path outside the content layout', async () => {
    await expect(
      writeContentFiles(tempDir(), [{ path: 'projects/../../etc/x.yaml', value: {} }]),
    ).rejects.toThrow(/Internal error/);
  });
});
