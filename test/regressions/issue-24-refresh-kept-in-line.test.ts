/**
 * Issue 24: a long-running mirror keeps its scratch folder while the state in
 * the store is the one it wrote, and does not read the state again. It also
 * keeps whether that state says the target is in line with the build cache's
 * model, so its next refresh compares only what changed, as a run that read
 * the state would; a state written by another run is read, flag and all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noFigures } from '../../src/deploy/deploy.ts';
import { recordPath } from '../../src/deploy/record.ts';
import { describeTarget } from '../../src/deploy/target.ts';
import { tempDir } from '../helpers.ts';
import { useStateBucket } from '../support/state-bucket.ts';

const { target, runWithState } = useStateBucket('kept-in-line');

interface Kept {
  md5: string;
  inLine: boolean;
}

/**
 * One run through the state in `outDir` (kept from the run before, or not), whose work leaves the
 * record `text`: what its work was told, and what it saved.
 */
async function run(outDir: string, kept: Kept | null, leavesInLine: boolean, text = 'a record\n') {
  let told: boolean | null = null;
  let saved: Kept | null = null;
  const report = await runWithState(
    outDir,
    {
      kept: kept ? { ...kept, discard: async () => {} } : undefined,
      onSaved: (md5, inLine) => (saved = { md5, inLine }),
    },
    async ({ inLine }) => {
      told = inLine;
      const record = recordPath(outDir, describeTarget(target));
      mkdirSync(dirname(record), { recursive: true });
      writeFileSync(record, text);
      return { ...noFigures(), ok: true, message: '', ...(leavesInLine && { inLine: true }) };
    },
  );
  expect(report.ok).toBe(true);
  return { told: told as boolean | null, saved: saved as Kept | null };
}

describe('a state kept in the folders of the process that wrote it', () => {
  it('keeps whether the state says the target is in line, and reads it again from another run', async () => {
    const outDir = join(tempDir(), 'dist');
    const first = await run(outDir, null, true);
    expect(first).toEqual({ told: false, saved: { md5: expect.any(String), inLine: true } });

    // Kept: the state is not read again, and the flag comes from what this process wrote.
    const second = await run(outDir, first.saved, false);
    expect(second.told).toBe(true);
    expect(second.saved?.inLine).toBe(false);
    const third = await run(outDir, second.saved, true);
    expect(third.told).toBe(false);

    // Another run wrote the state since: it is read again, with the flag that run left.
    const other = await run(join(tempDir(), 'dist'), null, true, 'another record\n');
    expect(other.told).toBe(true);
    const fourth = await run(outDir, { md5: first.saved!.md5, inLine: false }, false);
    expect(fourth.told).toBe(true);
  });
});
