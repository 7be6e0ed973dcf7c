/**
 * Issue 27, item 2 (one grammar for the manifest's journal): the lines a build
 * appends to the manifest are read by the parser that reads the manifest
 * written whole, so a key it writes is a key it reads back. The journal was
 * read by a regular expression whose `.` stops at a line separator (U+2028),
 * which an extra file's name may hold: the manifest was then not understood
 * and the next build wrote the whole tree again.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { GroupStates } from '../../src/tree/group-states.ts';
import { checkedLine } from '../../src/tree/journal.ts';
import { readManifest } from '../../src/tree/manifest.ts';
import { FIXTURES, tempDir } from '../helpers.ts';

const NAME = 'notes\u2028draft.txt';

describe("the manifest's journal", () => {
  it('reads back an extra file whose name holds a line separator, and the next build updates in place', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    const out = join(dir, 'dist');
    cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
    mkdirSync(join(content, 'extra'));
    writeFileSync(join(content, 'extra', NAME), 'one\n');
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
    writeFileSync(join(content, 'extra', NAME), 'two\n');
    expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);

    const manifest = await readManifest(out);
    expect(manifest?.groups.get(`/${NAME}`)).toEqual(expect.any(Number));
    writeFileSync(join(content, 'extra', NAME), 'three\n');
    const report = await buildDirectory({ contentDir: content, outDir: out });
    expect(report.mode).toBe('in-place');
  });

  it('applies lines appended after a kept index as a parse of the whole text would', () => {
    const lines = (...texts: string[]) => texts.map(checkedLine).join('');
    const whole = lines('1 /a/', '2 /b/', '? /c/');
    const kept = GroupStates.parse(Buffer.from(whole))!.encodeIndex();
    const text = Buffer.from(whole + lines('- /a/', '3 /b/', '- /b/', '4 /b/', '5 /d\u2028e/'));
    const read = GroupStates.fromIndex(text, kept)!;
    expect(new Map(read)).toEqual(new Map(GroupStates.parse(text)));
    expect(read.linesRead).toBe(8);
    expect(GroupStates.fromIndex(Buffer.from(whole + lines('x! /a/')), kept)).toBeNull();
  });
});
