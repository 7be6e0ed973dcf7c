/**
 * Bringing a tree folder in line with a model: in place when the manifest
 * beside it describes this very folder built with the same settings, else a
 * whole new tree written beside it and swapped in. Either way the manifest on
 * disk describes the tree afterwards. The build, a kept-open session and its
 * crash recovery all go through here.
 */
import { rm } from 'node:fs/promises';
import type { HostOptions } from '../hosts/index.ts';
import type { Model } from '../model/types.ts';
import { dirTarget, type OutputTarget } from '../output/target.ts';
import { checkTreeFiles } from './check-files.ts';
import {
  appendFilesRecord,
  FilesRecordWriter,
  hasFilesRecord,
  namesInGroup,
} from './files-record.ts';
import { fileGroups } from './groups.ts';
import { findKeptFiles, keepingTarget, keptNotice, restoreKeptLinks } from './kept-files.ts';
import {
  invalidateManifest,
  isEarlierManifest,
  isRecordedTree,
  journalIsLong,
  manifestJournal,
  ManifestWriter,
  readManifest,
  recordTree,
  scratchDir,
  treeIdentity,
  writeManifest,
  type Manifest,
} from './manifest.ts';
import { updateInPlace, type TreeInPlace } from './update.ts';
import { settingsFingerprint, type FingerprintCache } from './fingerprints.ts';
import { writeTree } from './write.ts';
import { pngCache } from './png-cache.ts';

export interface SyncOptions {
  /** Write a whole new tree even when the one in place could be updated. */
  full?: boolean | undefined;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Whose files take the root names. */
  host?: HostOptions['host'];
  /** Keep the manifest of a whole new tree in memory too (for further updates in place). */
  keepManifest?: boolean;
  /** Told of each file in a tree rewritten whole that the build did not write (carried over unchanged). */
  onNotice?: ((message: string) => void) | undefined;
  /** Check every file the tree's record lists, not only this build's window of them. */
  verify?: boolean | undefined;
  /** Called before a tree this tool built is rewritten whole because the settings it depends on differ (or the tool's output format). */
  onRewrite?: (() => void) | undefined;
  /** Where the fingerprints computed while rendering are kept, for the build cache to record after. */
  fingerprints?: FingerprintCache | undefined;
  /**
   * A whole new tree's manifest is left without its index: the caller keeps it
   * (keepManifestIndex) once the model is gone, so that the two are never held at once.
   */
  deferIndex?: boolean | undefined;
}

export interface SyncedTree {
  manifest: Manifest;
  /** `fresh`: a whole new tree swapped in (files and bytes written); `in-place`: files rewritten, groups rendered and removed. */
  report:
    | { mode: 'fresh'; files: number; bytes: number }
    | {
        mode: 'in-place';
        files: number;
        groupsRendered: number;
        groupsRemoved: number;
        /** Files found missing or replaced, whose groups were written again. */
        repaired: number;
      };
}

export async function syncTree(
  outDir: string,
  model: Model,
  options: SyncOptions = {},
): Promise<SyncedTree> {
  await rm(scratchDir(outDir), { recursive: true, force: true });
  const recorded = await readManifest(outDir);
  const hosts: HostOptions = { host: options.host };
  const settings = settingsFingerprint(model, hosts).toString(36);
  const identity = await treeIdentity(outDir);
  // A tree without a record of its files (built before one was kept) is written whole once.
  if (
    !options.full &&
    recorded &&
    identity !== null &&
    recorded.tree === `${identity}:${settings}` &&
    hasFilesRecord(outDir)
  ) {
    const check = await checkTreeFiles(outDir, recorded, { all: options.verify });
    const tree = treeInPlace(outDir);
    const stats = await updateInPlace(
      tree,
      fileGroups(model, { hosts, pngs: tree.pngs, cache: options.fingerprints }),
      recorded,
    );
    if (journalIsLong(recorded)) await writeManifest(outDir, recorded);
    return {
      // Kept for further updates (a session): as a Map, whose keys a removal scans without making half a million strings each time.
      manifest: options.keepManifest ? { ...recorded, groups: new Map(recorded.groups) } : recorded,
      report: {
        mode: 'in-place',
        files: stats.filesWritten,
        groupsRendered: stats.groupsRendered,
        groupsRemoved: stats.groupsRemoved,
        repaired: check.files,
      },
    };
  }
  const sameFolder = recorded
    ? identity !== null && recorded.tree.startsWith(`${identity}:`)
    : await isEarlierManifest(outDir);
  if (!options.full && sameFolder) options.onRewrite?.();
  return writeFreshTree(outDir, model, hosts, settings, options);
}

/** The folder at `outDir` as a tree updated in place: files through a folder target, lines to its manifest's journal. */
export function treeInPlace(outDir: string): TreeInPlace {
  return {
    target: folderTarget(outDir),
    journal: manifestJournal(outDir),
    recordFiles: (groups) => appendFilesRecord(outDir, groups),
    pngs: pngCache(outDir),
  };
}

// --- internal ---

function folderTarget(outDir: string): OutputTarget {
  return dirTarget(outDir, { scratch: scratchDir(outDir) });
}

async function writeFreshTree(
  outDir: string,
  model: Model,
  hosts: HostOptions,
  settings: string,
  options: SyncOptions,
): Promise<SyncedTree> {
  // What a user put in a tree this tool built goes on into the new one; a folder replaced with --force is not kept.
  const kept = (await isRecordedTree(outDir)) ? findKeptFiles(outDir) : null;
  await invalidateManifest(outDir);
  const writer = new ManifestWriter(outDir);
  const files = new FilesRecordWriter(outDir);
  const groups = new Map<string, number>();
  const onGroup = async (key: string, fingerprint: number, paths: string[]) => {
    await writer.add(key, fingerprint);
    await files.add(key, namesInGroup(key, paths));
    if (options.keepManifest) groups.set(key, fingerprint);
  };
  let written: { files: number; bytes: number };
  try {
    const target = kept ? keepingTarget(folderTarget(outDir), kept) : folderTarget(outDir);
    const { onProgress } = options;
    written = await writeTree(model, target, {
      onProgress,
      hosts,
      onGroup,
      pngs: pngCache(outDir),
      cache: options.fingerprints,
    });
    await writer.close({ index: !options.deferIndex });
    await files.close();
  } catch (error) {
    await writer.abort();
    await files.abort();
    throw error;
  }
  const manifest: Manifest = {
    tree: `${await treeIdentity(outDir)}:${settings}`,
    host: hosts.host,
    groups,
    journalLines: groups.size,
  };
  await recordTree(outDir, manifest.tree, manifest.host);
  if (kept) {
    await restoreKeptLinks(outDir, kept);
    for (const path of [...kept.files.keys(), ...kept.links.keys()].sort())
      options.onNotice?.(keptNotice(path));
  }
  return { manifest, report: { mode: 'fresh', files: written.files, bytes: written.bytes } };
}
