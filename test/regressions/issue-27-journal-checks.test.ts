/**
 * Issue 27, item 2 (one integrity scheme for the state folder's journals): every line of the
 * manifest, the files record, the build cache's journal and a deploy record carries its own check.
 * A byte flipped inside a line that still parses is caught, and the journal is not trusted; a last
 * line cut short of its line break (an append a crash cut short) is left out.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDirectory } from '../../src/build.ts';
import { appendBuildCache, readBuildCache, writeBuildCache } from '../../src/cache/cache-file.ts';
import { appendRecord, readRecord, writeRecord } from '../../src/deploy/record.ts';
import { readFilesRecord } from '../../src/tree/files-record.ts';
import { manifestPath, readManifest } from '../../src/tree/manifest.ts';
import { EARLIER_FORMAT } from '../../src/tree/settings.ts';
import { FIXTURES, tempDir } from '../helpers.ts';

async function builtTree(): Promise<{ content: string; out: string }> {
  const dir = tempDir();
  const content = join(dir, 'content');
  const out = join(dir, 'dist');
  cpSync(join(FIXTURES, 'minimal/content'), content, { recursive: true });
  expect((await buildDirectory({ contentDir: content, outDir: out })).errors).toEqual([]);
  return { content, out };
}

/** The file with `from` replaced by `to` once (the same length: only a check can tell). */
function replaceOnce(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'latin1');
  expect(text).toContain(from);
  expect(to.length).toBe(from.length);
  writeFileSync(file, text.replace(from, to), 'latin1');
}

describe("the manifest's lines", () => {
  it('are not trusted once a byte of a key is flipped, and the next build writes the tree whole', async () => {
    const { content, out } = await builtTree();
    replaceOnce(manifestPath(out), '/api/projects/', '/api/projectz/');
    expect(await readManifest(out)).toBeNull();
    const report = await buildDirectory({ contentDir: content, outDir: out, full: false });
    expect(report.mode).toBe('fresh');
  });

  it('written by the version before them are not read, and the build says why it writes the tree whole', async () => {
    const { content, out } = await builtTree();
    writeFileSync(manifestPath(out), 'weblate-snapshot manifest 1\n1 /api/\n');
    const said: string[] = [];
    const report = await buildDirectory({
      contentDir: content,
      outDir: out,
      onSettingsChange: (change) => said.push(change),
    });
    expect(report.mode).toBe('fresh');
    expect(said).toEqual([EARLIER_FORMAT]);
  });

  it('leave out a last line cut short of its line break', async () => {
    const { out } = await builtTree();
    appendFileSync(manifestPath(out), '? /api/projects/tor');
    const manifest = await readManifest(out);
    expect(manifest).not.toBeNull();
    expect(manifest!.groups.has('/api/projects/tor')).toBe(false);
  });
});

describe("the files record's lines", () => {
  const recordPath = (out: string) => join(`${out}.state`, 'files');

  it('are not trusted once a byte of a key is flipped', async () => {
    const { out } = await builtTree();
    expect(readFilesRecord(out)).not.toBeNull();
    replaceOnce(recordPath(out), ' /api/projects/', ' /api/projectz/');
    expect(readFilesRecord(out)).toBeNull();
  });

  it('leave out a last line cut short of its line break', async () => {
    const { out } = await builtTree();
    const text = readFileSync(recordPath(out), 'utf8');
    const last = text.slice(text.lastIndexOf('\n', text.length - 2) + 1, -1);
    appendFileSync(recordPath(out), `${last}torn`);
    const groups = readFilesRecord(out);
    expect(groups).not.toBeNull();
    expect([...groups!.keys()].filter((key) => key.endsWith('torn'))).toEqual([]);
  });
});

describe("a deploy record's lines", () => {
  const TARGET = 's3://snap/l10n at http://127.0.0.1:9';

  async function recorded(): Promise<{ out: string; file: string }> {
    const out = join(tempDir(), 'dist');
    const record = { target: TARGET, settings: '{}', baseUrl: null, groups: new Map(), lines: 0 };
    await writeRecord(out, record);
    await appendRecord(out, record, [
      ['/api/', { fingerprint: 7, files: new Map([['index.json', 'AAAA']]) }],
      ['/api/projects/', { fingerprint: 8, files: new Map([['index.json', 'BBBB']]) }],
    ]);
    const state = `${out}.state`;
    return {
      out,
      file: join(
        state,
        readdirSync(state).find((f) => f.startsWith('deploy-'))!,
      ),
    };
  }

  it('are not trusted once a byte of an MD5 is flipped, so every file goes up again', async () => {
    const { out, file } = await recorded();
    expect((await readRecord(out, TARGET))?.groups.size).toBe(2);
    replaceOnce(file, 'index.json AAAA', 'index.json AAAB');
    expect(await readRecord(out, TARGET)).toBeNull();
  });

  it('leave out a last line cut short of its line break', async () => {
    const { out, file } = await recorded();
    appendFileSync(file, '9 /api/languages/\tindex.json CCCC');
    expect([...(await readRecord(out, TARGET))!.groups.keys()]).toEqual([
      '/api/',
      '/api/projects/',
    ]);
  });
});

describe("the build cache journal's lines", () => {
  const key = { contentDir: '/content', settings: '{}' };
  const journal = (out: string) => join(`${out}.state`, 'build-cache.journal');

  async function cached(): Promise<string> {
    const out = join(tempDir(), 'dist');
    await writeBuildCache(out, {
      key,
      stamp: 'whole',
      takenAt: 0,
      translations: 0,
      warnings: new Map(),
      signatures: new Map(),
      model: [Buffer.from('model')],
    });
    await appendBuildCache(out, [{ path: 'a.yaml', signature: null }], 'first', 1);
    await appendBuildCache(out, [{ path: 'b.yaml', signature: null }], 'second', 2);
    return out;
  }

  it('are not trusted once a byte is flipped mid-line, so the build reads the content', async () => {
    const out = await cached();
    expect((await readBuildCache(out, key))?.stamp).toBe('second');
    const bytes = readFileSync(journal(out));
    bytes[Math.floor(bytes.length / 4)]! ^= 0x01;
    writeFileSync(journal(out), bytes);
    expect(await readBuildCache(out, key)).toBeNull();
  });

  it('leave out a last line cut short of its line break', async () => {
    const out = await cached();
    const bytes = readFileSync(journal(out));
    writeFileSync(journal(out), bytes.subarray(0, bytes.length - 5));
    const cache = await readBuildCache(out, key);
    expect(cache?.stamp).toBe('first');
    expect([...cache!.replay.keys()]).toEqual(['a.yaml']);
  });
});
