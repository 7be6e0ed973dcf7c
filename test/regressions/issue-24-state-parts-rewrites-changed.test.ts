/**
 * Issue 24: the state in the store is written in parts named by their
 * SHA-256, so a run that changed a line of a large deploy record (as one
 * counter changed does) sends only the part or two that hold the change and
 * the small root, not the whole state again; a runner that starts with an
 * empty folder still gets the whole record back, byte for byte.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noFigures } from '../../src/deploy/deploy.ts';
import { recordPath } from '../../src/deploy/record.ts';
import { describeTarget } from '../../src/deploy/target.ts';
import { tempDir } from '../helpers.ts';
import { fixedChecksum } from '../support/fixed-bytes.ts';
import { STATE_KEY, useStateBucket } from '../support/state-bucket.ts';

const BUCKET = 'state-parts';
const { servers, target, store, runWithState } = useStateBucket(BUCKET);

/** Lines as a deploy record holds them, about `bytes` of them, each MD5 random (so little of it compresses). */
function recordLines(bytes: number): string {
  const lines: string[] = [];
  for (let size = 0, n = 0; size < bytes; n++) {
    const line = `1 /api/translations/p${n}/c/de/\tindex.json ${fixedChecksum('rewrites-changed', n)}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

/** A run through the state from an empty folder; `work` changes the record as a deploy would. */
async function run(work: (record: string) => void) {
  const outDir = join(tempDir(), 'dist');
  const record = recordPath(outDir, describeTarget(target));
  const notices: string[] = [];
  const report = await runWithState(
    outDir,
    { onNotice: (text) => notices.push(text) },
    async () => {
      mkdirSync(dirname(record), { recursive: true });
      work(record);
      return { ...noFigures(), ok: true, message: '' };
    },
  );
  expect(report.ok).toBe(true);
  return { record: readFileSync(record, 'utf8'), notices };
}

/** The state's objects the last run put, with their sizes. */
async function statePuts(): Promise<Map<string, number>> {
  const keys = servers.proxy.log
    .filter((r) => r.method === 'PUT' && r.url.startsWith(`/${BUCKET}/${STATE_KEY}`))
    .map((r) => r.url.slice(BUCKET.length + 2).replace(/\?.*$/, ''))
    .filter((key) => !key.endsWith('.lease'));
  const client = store();
  try {
    const sizes = new Map<string, number>();
    for (const key of keys) sizes.set(key, (await client.get(key))?.length ?? 0);
    return sizes;
  } finally {
    client.close();
  }
}

const total = (sizes: Map<string, number>) => [...sizes.values()].reduce((a, b) => a + b, 0);

describe('the state in parts', () => {
  it('after one line of a large record changed, sends a part or two and the root, not the whole state', async () => {
    const text = recordLines(24 * 2 ** 20);
    const first = await run((record) => writeFileSync(record, text));
    expect(first.notices.join('\n')).toContain('there is no state at');
    const written = await statePuts();
    expect(written.size).toBeGreaterThan(3);

    servers.proxy.log.length = 0;
    const line = `1 /api/translations/changed/\tindex.json ${'A'.repeat(22)}==\n`;
    const second = await run((record) => {
      expect(readFileSync(record, 'utf8')).toBe(text);
      appendFileSync(record, line);
    });
    expect(second.notices).toEqual([]);
    const rewritten = await statePuts();
    expect(rewritten.has(STATE_KEY)).toBe(true);
    expect(rewritten.size).toBeLessThanOrEqual(3);
    expect(total(rewritten)).toBeLessThan(total(written) / 4);

    const third = await run(() => {});
    expect(third.record).toBe(text + line);
  });
});
