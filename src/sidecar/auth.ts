/**
 * API keys of the sidecar: read from a tokens file or an environment
 * variable (never from the content), at least 16 characters, kept only as
 * SHA-256 digests, and compared in constant time. Requests authenticate as
 * Weblate's do, with `Authorization: Token <key>` or `Authorization: Bearer
 * <key>`; a client that sends too many wrong keys is told to wait.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
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
    const fault = keyFault(key);
    if (fault) return { ok: false, message: `${name}:${index + 1}: ${fault}` };
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
  const bad = keys.findIndex((key) => keyFault(key) !== null);
  return bad < 0
    ? { ok: true, keys }
    : { ok: false, message: `${TOKENS_VARIABLE}, key ${bad + 1}: ${keyFault(keys[bad]!)}` };
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
}): Promise<KeysResult & { warnings?: string[] }> {
  const keys: string[] = [];
  const warnings: string[] = [];
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
    const mode = (await stat(real)).mode & 0o777;
    if (mode & 0o077)
      warnings.push(
        `Warning: --tokens-file ${options.file} can be read by other users (mode ${mode.toString(8)}); run chmod 600 on it.`,
      );
  }
  if (options.variable !== undefined) {
    const parsed = parseTokensVariable(options.variable);
    if (!parsed.ok) return parsed;
    keys.push(...parsed.keys);
  }
  return { ok: true, keys, warnings };
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

export type Credentials =
  | { kind: 'anonymous' }
  | { kind: 'invalid'; detail: string }
  | { kind: 'authenticated' }
  /** Too many wrong keys from this client lately: it may try again in `retryAfter` seconds. */
  | { kind: 'throttled'; retryAfter: number };

interface KeyGate {
  /** Who sent a request (authenticate()), unless its client sent too many wrong keys lately. */
  check(header: string | null, client: string): Credentials;
}

/** Wrong keys one client address may send within a minute before it must wait, unless told. */
export const KEY_FAILURES = 10;

/**
 * Authentication that counts wrong keys by client address: after `limit`
 * within FAILURE_WINDOW_MS, a request with a key is throttled, whether the
 * key is right or not, until the oldest failure is a window old. A limit of
 * 0 counts nothing.
 */
export function createKeyGate(
  keyring: Keyring,
  options: { limit?: number | undefined; now?: (() => number) | undefined } = {},
): KeyGate {
  const limit = options.limit ?? KEY_FAILURES;
  const now = options.now ?? Date.now;
  const failures = new Map<string, number[]>();
  return {
    check(header, client) {
      const credentials = authenticate(header, keyring);
      if (credentials.kind === 'anonymous' || limit === 0) return credentials;
      const time = now();
      const recent = (failures.get(client) ?? []).filter((at) => at > time - FAILURE_WINDOW_MS);
      failures.delete(client);
      if (recent.length >= limit) {
        failures.set(client, recent);
        return {
          kind: 'throttled',
          retryAfter: Math.ceil((recent[0]! + FAILURE_WINDOW_MS - time) / 1000),
        };
      }
      if (credentials.kind === 'invalid') recent.push(time);
      if (recent.length > 0) failures.set(client, recent);
      // The oldest client goes first once too many are tracked.
      if (failures.size > TRACKED_CLIENTS) failures.delete(failures.keys().next().value!);
      return credentials;
    },
  };
}

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

/** The shortest key taken: a short key is guessed in a few requests. */
const MIN_KEY_LENGTH = 16;

/** The window in which wrong keys are counted. */
const FAILURE_WINDOW_MS = 60_000;

/** Client addresses whose failures are remembered at once. */
const TRACKED_CLIENTS = 10_000;

/** What is wrong with a key, or null; never the key itself, which may be nearly right. */
function keyFault(key: string): string | null {
  if (!/^[\x21-\x7e]+$/.test(key))
    return 'expected a key of printable ASCII characters without spaces';
  if (key.length < MIN_KEY_LENGTH)
    return `expected a key of at least ${MIN_KEY_LENGTH} characters (got ${key.length}); make one with: openssl rand -hex 24`;
  return null;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
