/**
 * Issue 24: the build cache's model is encoded chunk by chunk as its temporary file is written.
 * When a chunk failed to encode, or the disk refused a write, the half-written temporary file
 * stayed in the state folder. Now it is removed and the error goes on to the caller. The disk's
 * refusal is real: a process whose file-size limit the cache outgrows.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordBuild, STORE_STAMP } from '../../src/cache/cold-build.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import type { Translation } from '../../src/model/types.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { stateDir } from '../../src/tree/state-folder.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { runScriptFile, scriptImporting } from '../support/heap-snapshot.ts';

const CONTENT = join(FIXTURES, 'features', 'content');

/**
 * The fixture's model written as a build cache beside `whole`, then beside `outDir` with the
 * process's file-size limit one byte short of the first cache: the last chunk's write fails.
 */
const SCRIPT = (whole: string, outDir: string) =>
  scriptImporting(
    {
      'cache/cold-build.ts': ['recordBuild', 'STORE_STAMP'],
      'resolve/open.ts': ['openContent'],
      'tree/fingerprints.ts': ['createFingerprintCache'],
    },
    `
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
const opened = await openContent(${JSON.stringify(CONTENT)});
const key = { contentDir: '', settings: '' };
const record = (outDir) => recordBuild({
  outDir, key, model: opened.model, signatures: new Map(), warnings: [], takenAt: 0, stamp: STORE_STAMP,
  fingerprints: createFingerprintCache(),
});
await record(${JSON.stringify(whole)});
const size = statSync(${JSON.stringify(join(stateDir(whole), 'build-cache'))}).size;
execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=' + (size - 1)]);
try {
  await record(${JSON.stringify(outDir)});
  console.log('written');
} catch (error) {
  console.log(error.code);
}
`,
  );

async function fixtureModel() {
  const opened = await openContent(CONTENT, { catalog: loadCatalog() });
  if (!opened.ok) throw new Error('the fixture does not open');
  return opened.model;
}

function recordOptions(outDir: string) {
  return {
    outDir,
    key: { contentDir: '', settings: '' },
    signatures: new Map(),
    warnings: [],
    takenAt: 0,
    stamp: STORE_STAMP,
    fingerprints: createFingerprintCache(),
  };
}

describe("the build cache's temporary file, after a failure", () => {
  it('is removed when a chunk of translations fails to encode', async () => {
    const outDir = join(tempDir(), 'dist');
    const model = await fixtureModel();
    // A version that cannot be worked out fails the chunk's encoding, after the head is written.
    const failing = createFingerprintCache();
    const known = failing.translations;
    failing.translations = {
      get: (t: Translation) => {
        if (t === model.translations.at(-1)) throw new Error('no version for this translation');
        return known.get(t);
      },
      set: (t: Translation, value: number) => known.set(t, value),
    };
    await expect(
      recordBuild({ ...recordOptions(outDir), model, fingerprints: failing }),
    ).rejects.toThrow('no version for this translation');
    expect(readdirSync(stateDir(outDir))).toEqual([]);
  });

  it('is removed when the disk refuses the last chunk, its first bytes taken', () => {
    const dir = tempDir();
    const outDir = join(dir, 'dist');
    const out = runScriptFile(join(dir, 'limited.mjs'), SCRIPT(join(dir, 'whole'), outDir));
    expect(out.trim()).toBe('EFBIG');
    expect(readdirSync(stateDir(outDir))).toEqual([]);
  }, 60_000);

  it('is renamed to the cache when nothing fails', async () => {
    const outDir = join(tempDir(), 'dist');
    await recordBuild({ ...recordOptions(outDir), model: await fixtureModel() });
    expect(readdirSync(stateDir(outDir))).toEqual(['build-cache']);
  });
});
