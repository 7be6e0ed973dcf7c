/**
 * Issue 24: pull's check opened the whole content at once, as the build does,
 * so its memory grew with the instance. It now checks the content in parts
 * (src/pull/check.ts); across parts it must find what the whole finds:
 * ids repeated in two projects, a repository link to a component of another
 * project that is itself linked, and every error of a single file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { formatContentError, type ContentError } from '../../src/errors.ts';
import { checkInParts } from '../../src/pull/check.ts';
import { contentOnDisk } from '../../src/pull/write.ts';
import { openContent } from '../../src/resolve/open.ts';
import { tempDir } from '../helpers.ts';

const component = (project: number, n: number) =>
  `projects/project-0000${project}/components/component-00${n}.yaml`;

/** Edits a file of `dir` by replacing `from` (which must be there) with `to`. */
function edit(dir: string, path: string, from: RegExp, to: string): void {
  const file = join(dir, path);
  const text = readFileSync(file, 'utf8');
  if (!from.test(text)) throw new Error(`${path} has no ${from}`);
  writeFileSync(file, text.replace(from, to));
}

/** Synthetic content with errors whose files lie in different projects. */
async function contentWithErrors(): Promise<string> {
  const dir = tempDir();
  await writeSyntheticContent(dir, { projects: 3, components: 3, languages: 3 });
  // One component id and one translation id in projects 1 and 3.
  for (const project of [1, 3]) {
    edit(dir, component(project, 2), /^name: /m, 'id: 999999\nname: ');
    edit(dir, component(project, 2), /^translations:\n( +)(\S+):\n/m, '$&$1$1id: 888888\n');
  }
  // Project 3's component links to project 1's, itself linked to project 2's.
  edit(dir, component(1, 1), /^repo: .*$/m, 'repo: weblate://project-00002/component-001');
  edit(dir, component(3, 1), /^repo: .*$/m, 'repo: weblate://project-00001/component-001');
  // A single file's error in the middle project.
  edit(dir, component(2, 3), /^( +)translated: \d+$/m, '$1translated: 99999999');
  return dir;
}

const lines = (errors: readonly ContentError[]) => errors.map(formatContentError).sort();

describe('the check of pulled content in parts (issue 24)', () => {
  it('finds every error the whole content has, one project a part', async () => {
    const dir = await contentWithErrors();
    const whole = await openContent(dir);
    expect(whole.ok).toBe(false);
    const expected = whole.ok ? [] : lines(whole.errors);
    expect(expected.join('\n')).toMatch(/expected a component id used once/);
    expect(expected.join('\n')).toMatch(/expected a translation id used once/);
    expect(expected.join('\n')).toMatch(/which is itself linked/);
    expect(expected.join('\n')).toMatch(/expected translated <= total/);
    const inParts = checkInParts(dir, await contentOnDisk(dir), loadCatalog(), 1);
    expect(lines(inParts)).toEqual(expected);
  });

  it('finds nothing in content without errors', async () => {
    const dir = tempDir();
    await writeSyntheticContent(dir, { projects: 3, components: 2, languages: 2 });
    expect(checkInParts(dir, await contentOnDisk(dir), loadCatalog(), 1)).toEqual([]);
  });
});
