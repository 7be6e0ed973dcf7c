/**
 * API keys of the sidecar: read from a tokens file or an environment
 * variable (never from the content), kept only as SHA-256 digests, and
 * compared in constant time. Requests authenticate as Weblate's do, with
 * `Authorization: Token <key>` or `Authorization: Bearer <key>`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

/** The environment variable that may hold keys, separated by commas or newlines. */
export const TOKENS_VARIABLE = 'WEBLATE_SNAPSHOT_TOKENS';

export interface Keyring {
  readonly size: number;
  /** Whether `key` is one of the keys; takes the same time whichever key matches, or none. */
  matches(key: string): boolean;
}

type KeysResult = { ok: true; keys: string[] } | { ok: false; message: string };

/** The keys of a tokens file: one a line; blank lines and lines starting with `#` are ignored. */
export function parseTokensFile(text: string, name: string): KeysResult {
  const keys: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const key = line.trim();
    if (key === '' || key.startsWith('#')) continue;
    if (!isKey(key)) return { ok: false, message: `${name}:${index + 1}: ${KEY_EXPECTATION}` };
    keys.push(key);
  }
  return { ok: true, keys };
}

/** The keys of the environment variable: separated by commas or newlines. */
export function parseTokensVariable(value: string): KeysResult {
  const keys = value
    .split(/[,\r\n]/)
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const bad = keys.findIndex((key) => !isKey(key));
  return bad < 0
    ? { ok: true, keys }
    : { ok: false, message: `${TOKENS_VARIABLE}, key ${bad + 1}: ${KEY_EXPECTATION}` };
}

/**
 * Every key from a tokens file and from the value of TOKENS_VARIABLE (either
 * may be absent). The file may not sit inside any of `forbidden` (the content
 * and output folders): keys never live with what is served or edited.
 */
export async function loadKeys(options: {
  file?: string | undefined;
  variable?: string | undefined;
  forbidden: readonly string[];
}): Promise<KeysResult> {
  const keys: string[] = [];
  if (options.file !== undefined) {
    const real = await realpath(options.file).catch(() => null);
    if (real === null)
      return { ok: false, message: `--tokens-file ${options.file} cannot be read` };
    for (const folder of options.forbidden) {
      const dir = await realpath(folder).catch(() => resolve(folder));
      if (real.startsWith(dir + sep))
        return {
          ok: false,
          message: `--tokens-file must not be inside ${folder}/ (keys never live with the content or the tree)`,
        };
    }
    const parsed = parseTokensFile(await readFile(real, 'utf8'), options.file);
    if (!parsed.ok) return parsed;
    keys.push(...parsed.keys);
  }
  if (options.variable !== undefined) {
    const parsed = parseTokensVariable(options.variable);
    if (!parsed.ok) return parsed;
    keys.push(...parsed.keys);
  }
  return { ok: true, keys };
}

export function createKeyring(keys: Iterable<string>): Keyring {
  const digests = [...new Set(keys)].map(digest);
  return {
    size: digests.length,
    matches(key) {
      const candidate = digest(key);
      let found = false;
      // Every digest is compared, so the time says nothing about which key matched.
      for (const known of digests) found = timingSafeEqual(candidate, known) || found;
      return found;
    },
  };
}

type Credentials =
  { kind: 'anonymous' } | { kind: 'invalid'; detail: string } | { kind: 'authenticated' };

const INVALID_TOKEN = 'Invalid token.';

/**
 * Who sent a request, from its Authorization header, as DRF's token
 * authentication decides it: no header or another scheme is anonymous; the
 * keyword `Token` or `Bearer` (any letter case) must be followed by exactly
 * one key.
 */
export function authenticate(header: string | null, keyring: Keyring): Credentials {
  const parts = (header ?? '').split(/\s+/).filter((part) => part !== '');
  const keyword = parts[0]?.toLowerCase();
  if (keyword !== 'token' && keyword !== 'bearer') return { kind: 'anonymous' };
  if (parts.length === 1)
    return { kind: 'invalid', detail: 'Invalid token header. No credentials provided.' };
  if (parts.length > 2)
    return {
      kind: 'invalid',
      detail: 'Invalid token header. Token string should not contain spaces.',
    };
  return keyring.matches(parts[1]!)
    ? { kind: 'authenticated' }
    : { kind: 'invalid', detail: INVALID_TOKEN };
}

// --- internal ---

const KEY_EXPECTATION = 'expected a key of printable ASCII characters without spaces';

function isKey(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
