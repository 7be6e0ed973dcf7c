/**
 * The PNG renderings kept in a tree's state folder (`png/`), by the key of
 * their drawing (status-site/png.ts), so a new process (a cold build, a
 * `--watch` restart, mirror's next run) draws only the PNGs whose drawing
 * changed. A file per rendering, named by its key and size, holds the PNG and
 * its CRC-32: one damaged or cut short is not taken (it is drawn again).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { PngStore } from '../status-site/png.ts';
import { readStateFile, stateDir } from './state-folder.ts';

/** The renderings kept beside the tree at `outDir`, at most `maxBytes` of them. */
export function pngCache(outDir: string, maxBytes = MAX_BYTES): PngStore {
  return new PngCache(join(stateDir(outDir), 'png'), maxBytes);
}

// --- internal ---

/** Some 4,000 projects' eight PNGs (about 30 KB a project, most of it the Open Graph panel). */
const MAX_BYTES = 128 * 1024 * 1024;

interface Entry {
  name: string;
  bytes: number;
  /** Taken or put by this process: kept when room is made. */
  used: boolean;
}

class PngCache implements PngStore {
  private entries: Map<string, Entry> | null = null;
  private total = 0;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  has(key: string): boolean {
    return this.listed().has(key);
  }

  get(key: string): Uint8Array | null {
    const entry = this.listed().get(key);
    if (!entry) return null;
    const png = checked(readStateFile(join(this.dir, entry.name)), entry.bytes);
    if (!png) {
      this.drop(key, entry);
      return null;
    }
    // Last to go when room is made: a drawing many builds take (a badge at 100%) stays.
    this.entries!.delete(key);
    this.entries!.set(key, { ...entry, used: true });
    return png;
  }

  /** Keeps a rendering, making room for it (one larger than the whole allowance is not kept). */
  put(key: string, png: Uint8Array): void {
    const entries = this.listed();
    const old = entries.get(key);
    if (old) this.drop(key, old);
    const bytes = png.byteLength + 4;
    if (this.total + bytes > this.maxBytes) this.makeRoom(bytes);
    if (this.total + bytes > this.maxBytes) return;
    const name = `${key}.${bytes}`;
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(crc32(png));
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(join(this.dir, name), Buffer.concat([png, sum]));
    } catch {
      // A rendering that cannot be kept is drawn again next time; the tree does not need it.
      return;
    }
    entries.set(key, { name, bytes, used: true });
    this.total += bytes;
  }

  /** The folder's renderings, listed once: a name says its key and size. */
  private listed(): Map<string, Entry> {
    if (this.entries) return this.entries;
    this.entries = new Map();
    for (const name of namesIn(this.dir)) {
      const parts = /^([\w-]+)\.(\d+)$/.exec(name);
      if (!parts) continue;
      const bytes = Number(parts[2]);
      this.entries.set(parts[1]!, { name, bytes, used: false });
      this.total += bytes;
    }
    return this.entries;
  }

  /**
   * Removes renderings until `bytes` more fit: first those no drawing of this
   * process asked for, then (a long session) the least recently used.
   */
  private makeRoom(bytes: number): void {
    for (const onlyUnused of [true, false])
      for (const [key, entry] of this.entries!) {
        if (this.total + bytes <= this.maxBytes) return;
        if (!onlyUnused || !entry.used) this.drop(key, entry);
      }
  }

  private drop(key: string, entry: Entry): void {
    this.entries!.delete(key);
    this.total -= entry.bytes;
    rmSync(join(this.dir, entry.name), { force: true });
  }
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The PNG of a kept file whose size and CRC-32 check out, else null. */
function checked(data: Buffer | null, bytes: number): Uint8Array | null {
  if (!data || data.length !== bytes || bytes < 4) return null;
  const png = data.subarray(0, bytes - 4);
  return crc32(png) === data.readUInt32LE(bytes - 4) ? png : null;
}
