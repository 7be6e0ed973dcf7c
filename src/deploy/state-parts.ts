/**
 * The state in the store (`--state`) as parts: the bytes of the files it
 * carries, one after the other, cut where their content says (a rolling hash
 * of the last bytes, so an edit or an append moves only the cuts near it),
 * each part an object named by its SHA-256 under the state key's own prefix.
 * The object at the state key itself, the root, is small: the target, each
 * file's name and size, and the parts in order. A run writes only the parts
 * the store does not hold yet and puts the root last, so a reader finds either
 * the old state or the new one, and a part's name is checked against its bytes.
 */
import { createHash } from 'node:crypto';

export interface StateRoot {
  target: string;
  files: { name: string; size: number }[];
  parts: { sha256: string; size: number }[];
  /**
   * The run that wrote it left the target in line with the model its build cache holds, every
   * group's line whole: the next run may look only at what changed in the content since.
   */
  inLine?: true;
}

/** The key of a part: under `<state key>.parts/`, beside the lease. */
export function partKey(stateKey: string, sha256: string): string {
  return `${partsPrefix(stateKey)}${sha256}`;
}

export function partsPrefix(stateKey: string): string {
  return `${stateKey}.parts/`;
}

/** The root's bytes: a header line naming the format, the rest JSON. */
export function encodeStateRoot(root: StateRoot): Buffer {
  return Buffer.from(`${ROOT_HEADER}\t${JSON.stringify(root)}\n`);
}

/** Whether an object at the state key is a root (else it is a state of one object, an older version's). */
export function isStateRoot(bytes: Buffer): boolean {
  return bytes.subarray(0, ROOT_HEADER.length).toString('latin1') === ROOT_HEADER;
}

/** The root in `bytes`, or why it cannot be trusted. */
export function parseStateRoot(
  bytes: Buffer,
): { ok: true; root: StateRoot } | { ok: false; reason: string } {
  const text = bytes.toString('utf8');
  if (!text.startsWith(`${ROOT_HEADER}\t`) || !text.endsWith('\n'))
    return { ok: false, reason: `its root is not a whole "${ROOT_HEADER}" line` };
  let value: Partial<StateRoot>;
  try {
    value = JSON.parse(text.slice(ROOT_HEADER.length + 1)) as Partial<StateRoot>;
  } catch {
    return { ok: false, reason: 'its root is not JSON' };
  }
  const { target, files, parts, inLine } = value;
  if (
    typeof target !== 'string' ||
    !Array.isArray(files) ||
    !files.every((f) => typeof f?.name === 'string' && isSize(f.size)) ||
    !Array.isArray(parts) ||
    !parts.every((p) => SHA256.test(String(p?.sha256)) && isSize(p.size))
  )
    return { ok: false, reason: 'its root lacks a target, files or parts' };
  if (sum(files.map((f) => f.size)) !== sum(parts.map((p) => p.size)))
    return { ok: false, reason: 'its parts do not add up to its files' };
  return { ok: true, root: { target, files, parts, ...(inLine === true && { inLine }) } };
}

/**
 * Cuts a stream of bytes into parts: a cut where the rolling hash of the last
 * 32 bytes has its low bits clear, once a part has MIN_PART bytes, and at
 * MAX_PART at the latest. `push` returns the parts completed by a block.
 */
export class PartCutter {
  private blocks: Buffer[] = [];
  private size = 0;
  private hash = 0;

  push(block: Buffer): Buffer[] {
    const parts: Buffer[] = [];
    let start = 0;
    while (start < block.length) {
      const cut = this.findCut(block, start);
      if (cut < 0) {
        this.blocks.push(block.subarray(start));
        this.size += block.length - start;
        break;
      }
      this.blocks.push(block.subarray(start, cut));
      parts.push(this.take());
      start = cut;
    }
    return parts;
  }

  /** The last part, if any bytes are left. */
  end(): Buffer | null {
    return this.size > 0 ? this.take() : null;
  }

  /** Where in `block` the part under way ends, or -1 when it goes on past it. */
  private findCut(block: Buffer, start: number): number {
    // Bytes before the window that ends at MIN_PART cannot decide a cut: skipped.
    const from = start + Math.max(0, MIN_PART - WINDOW - this.size);
    const last = Math.min(block.length, start + MAX_PART - this.size);
    const checkFrom = start + MIN_PART - 1 - this.size;
    let hash = this.hash;
    for (let at = from; at < last; at++) {
      hash = ((hash << 1) + GEAR[block[at]!]!) | 0;
      if ((hash & CUT_MASK) === 0 && at >= checkFrom) {
        this.hash = 0;
        return at + 1;
      }
    }
    const full = last === start + MAX_PART - this.size;
    this.hash = full ? 0 : hash;
    return full ? last : -1;
  }

  private take(): Buffer {
    const part = this.blocks.length === 1 ? this.blocks[0]! : Buffer.concat(this.blocks);
    this.blocks = [];
    this.size = 0;
    return part;
  }
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// --- internal ---

const ROOT_HEADER = 'weblate-snapshot state 2';
const SHA256 = /^[0-9a-f]{64}$/;
/** Parts of 2 to 8 MiB, about 4 on average: few requests, and little sent again for a small change. */
const MIN_PART = 2 * 2 ** 20;
const MAX_PART = 8 * 2 ** 20;
const CUT_MASK = 2 ** 21 - 1;
/** The bytes a 32-bit gear hash depends on. */
const WINDOW = 32;
/** A fixed random number for each byte value (the same in every version, or no part would be found again). */
const GEAR = Int32Array.from({ length: 256 }, (_, byte) =>
  createHash('sha256').update(`gear ${byte}`).digest().readInt32LE(0),
);

function isSize(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
