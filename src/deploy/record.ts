/**
 * The deploy record: what this tree last put at one target, kept in the
 * tree's state folder beside its manifest, one file per target. For each
 * group of the manifest it holds the fingerprint the group had when its files
 * went up, and the MD5 of each file (what S3 reports as the ETag of a
 * single-part upload). A later deploy compares it with the manifest and
 * uploads only the files of groups that changed, and of those only the files
 * whose bytes changed, without listing the bucket.
 *
 * It is a journal (tree/journal.ts): a group's line is appended once its files are up (and its
 * keys that left the tree deleted), so a deploy cut short resumes where it stopped. It is written
 * whole again once stale lines pass a quarter of it.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../output/atomic.ts';
import { internalError } from '../errors.ts';
import { checkedLine, readJournalLines } from '../tree/journal.ts';
import { stateDir } from '../tree/state-folder.ts';

export interface DeployedGroup {
  fingerprint: number;
  /** Each published file of the group, by its path relative to the group's folder: its MD5, base64. */
  files: Map<string, string>;
}

export interface DeployRecord {
  /** The target, as describeTarget() gives it with its endpoint. */
  target: string;
  /** What every object was uploaded with (Cache-Control, the type table): other settings upload everything again. */
  settings: string;
  /** The base URL of the tree last deployed there; null when not recorded (a record of an earlier version). */
  baseUrl: string | null;
  groups: Map<string, DeployedGroup>;
  /** Lines after the header: one per group once written whole, more as deploys append. */
  lines: number;
}

/** The record of deploys of the tree at `outDir` to `target`, or null when there is none (or it is not readable). */
export async function readRecord(outDir: string, target: string): Promise<DeployRecord | null> {
  const bytes = await readFile(recordPath(outDir, target)).catch(() => null);
  const lines = bytes && readJournalLines(bytes);
  if (!Array.isArray(lines)) return null;
  const header = parseHeader(lines[0] ?? '');
  if (!header || header.target !== target) return null;
  const record: DeployRecord = {
    target,
    settings: header.settings,
    baseUrl: header.baseUrl,
    groups: new Map(),
    lines: 0,
  };
  for (const line of lines.slice(1)) {
    if (!applyLine(record, line)) return null;
    record.lines++;
  }
  return record;
}

/** Appends groups now at the target (or gone from it) to the record, which is updated in memory too. */
export async function appendRecord(
  outDir: string,
  record: DeployRecord,
  entries: readonly [string, DeployedGroup | 'removed'][],
): Promise<void> {
  if (entries.length === 0) return;
  const text = entries.map(([key, group]) => formatLine(key, group)).join('');
  await mkdir(stateDir(outDir), { recursive: true });
  await appendFile(recordPath(outDir, record.target), text);
  for (const [key, group] of entries) {
    if (group === 'removed') record.groups.delete(key);
    else record.groups.set(key, group);
  }
  record.lines += entries.length;
}

/** Writes the record whole (a new record, other settings, a verify, or a journal grown long). */
export async function writeRecord(outDir: string, record: DeployRecord): Promise<void> {
  const { target, settings, baseUrl } = record;
  let text = checkedLine(`${HEADER}\t${JSON.stringify({ target, settings, baseUrl })}`);
  for (const [key, group] of record.groups) text += formatLine(key, group);
  await writeFileAtomic(recordPath(outDir, record.target), text);
  record.lines = record.groups.size;
}

/** The record's `settings`: what every object is uploaded with (Cache-Control, the type table). */
export function uploadSettings(cacheControl: string | null): string {
  return JSON.stringify({ cacheControl, types: 1 });
}

/** Whether the journal is worth writing whole: once its stale lines pass a quarter of the groups (and a floor). */
export function recordIsLong(record: DeployRecord): boolean {
  return record.lines - record.groups.size > Math.max(1000, record.groups.size / 4);
}

// --- internal ---

// Version 2: each line, the header too, carries its check (tree/journal.ts).
const HEADER = 'weblate-snapshot deploy record 2';

/** The record's file in the state folder (one per target). */
export function recordPath(outDir: string, target: string): string {
  const id = createHash('sha256').update(target).digest('hex').slice(0, 16);
  return join(stateDir(outDir), `deploy-${id}`);
}

function parseHeader(
  line: string,
): { target: string; settings: string; baseUrl: string | null } | null {
  if (!line.startsWith(`${HEADER}\t`)) return null;
  try {
    const value = JSON.parse(line.slice(HEADER.length + 1)) as {
      target?: unknown;
      settings?: unknown;
      baseUrl?: unknown;
    };
    const baseUrl = typeof value.baseUrl === 'string' ? value.baseUrl : null;
    return typeof value.target === 'string' && typeof value.settings === 'string'
      ? { target: value.target, settings: value.settings, baseUrl }
      : null;
  } catch {
    return null;
  }
}

/** `<fingerprint> <key>\t<file> <md5>\t…` or `- <key>`. */
function formatLine(key: string, group: DeployedGroup | 'removed'): string {
  if (/[\s]/.test(key))
    internalError(`a group key with white space cannot be recorded: ${JSON.stringify(key)}`);
  if (group === 'removed') return checkedLine(`- ${key}`);
  let line = `${group.fingerprint.toString(36)} ${key}`;
  for (const [file, md5] of group.files) {
    if (/[\t\n]/.test(file))
      internalError(
        `a file name with a tab or line break cannot be recorded: ${JSON.stringify(file)}`,
      );
    line += `\t${file} ${md5}`;
  }
  return checkedLine(line);
}

function applyLine(record: DeployRecord, line: string): boolean {
  const [head = '', ...files] = line.split('\t');
  const space = head.indexOf(' ');
  if (space < 0) return false;
  const key = head.slice(space + 1);
  if (head.startsWith('- ')) {
    record.groups.delete(key);
    return true;
  }
  const fingerprint = Number.parseInt(head.slice(0, space), 36);
  if (!Number.isSafeInteger(fingerprint)) return false;
  const group: DeployedGroup = { fingerprint, files: new Map() };
  for (const entry of files) {
    const at = entry.lastIndexOf(' ');
    if (at < 0) return false;
    group.files.set(entry.slice(0, at), entry.slice(at + 1));
  }
  record.groups.set(key, group);
  return true;
}
