/**
 * The state a deploy kept in the store (`--state`) before its parts
 * (state-parts.ts), still read when found there: one gzipped object
 * whose first line names the target and lists each file it carries with its
 * size and SHA-256, followed by the files' bytes. Reading it back checks
 * every size and hash, so a damaged or cut-short object is refused with the
 * reason, never half used. It holds what the tool wrote about the target
 * (the deploy record) and, for a mirror, the content it pulled: nothing
 * secret, but not for publishing either.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

type StateFiles = Map<string, Buffer>;

type Decoded = { ok: true; target: string; files: StateFiles } | { ok: false; reason: string };

/** The bundle of `files` for `target`, gzipped. */
export async function encodeStateBundle(target: string, files: StateFiles): Promise<Buffer> {
  const entries = [...files].map(([name, body]) => ({
    name,
    size: body.length,
    sha256: sha256(body),
  }));
  const header = `${HEADER}\t${JSON.stringify({ target, files: entries })}\n`;
  return gzipAsync(Buffer.concat([Buffer.from(header), ...files.values()]));
}

/** The files of a bundle, or why it cannot be trusted. */
export async function decodeStateBundle(bundle: Buffer): Promise<Decoded> {
  let bytes: Buffer;
  try {
    bytes = await gunzipAsync(bundle);
  } catch (error) {
    return { ok: false, reason: `not gzip data (${(error as Error).message})` };
  }
  const end = bytes.indexOf(0x0a);
  const header = end < 0 ? null : parseHeader(bytes.subarray(0, end).toString('utf8'));
  if (!header) return { ok: false, reason: `no "${HEADER}" line at its start` };
  const files: StateFiles = new Map();
  let at = end + 1;
  for (const entry of header.files) {
    const body = bytes.subarray(at, at + entry.size);
    if (body.length !== entry.size || sha256(body) !== entry.sha256)
      return { ok: false, reason: `${entry.name} does not match its SHA-256` };
    files.set(entry.name, body);
    at += entry.size;
  }
  if (at !== bytes.length)
    return { ok: false, reason: `${bytes.length - at} bytes after the files it lists` };
  return { ok: true, target: header.target, files };
}

// --- internal ---

const HEADER = 'weblate-snapshot state 1';
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

interface Entry {
  name: string;
  size: number;
  sha256: string;
}

function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

function parseHeader(line: string): { target: string; files: Entry[] } | null {
  if (!line.startsWith(`${HEADER}\t`)) return null;
  try {
    const value = JSON.parse(line.slice(HEADER.length + 1)) as {
      target?: unknown;
      files?: unknown;
    };
    if (typeof value.target !== 'string' || !Array.isArray(value.files)) return null;
    const files = value.files as Partial<Entry>[];
    const valid = files.every(
      (f) =>
        typeof f.name === 'string' &&
        Number.isSafeInteger(f.size) &&
        f.size! >= 0 &&
        typeof f.sha256 === 'string',
    );
    return valid ? { target: value.target, files: files as Entry[] } : null;
  } catch {
    return null;
  }
}
