/**
 * Writing a whole new tree: every group of the model rendered into the
 * target, then committed, so a reader sees the old tree or the new one.
 */
import type { HostOptions } from '../hosts/index.ts';
import type { Model } from '../model/types.ts';
import type { OutputTarget } from '../output/target.ts';
import type { PngStore } from '../status-site/png.ts';
import type { FingerprintCache } from './fingerprints.ts';
import { countTreeFiles, fileGroups, type FileGroup } from './groups.ts';

interface WriteStats {
  files: number;
  bytes: number;
}

interface WriteTreeOptions {
  /** Called now and then with files written so far and the total. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  hosts?: HostOptions | undefined;
  /** After each group, with the fingerprint its files were rendered from and their paths (the manifest of the new tree). */
  onGroup?:
    ((key: string, fingerprint: number, paths: string[]) => Promise<void> | void) | undefined;
  /** Where the PNG widgets' renderings are kept between processes (a tree's state folder). */
  pngs?: PngStore | undefined;
  /** Where the groups' fingerprints are kept, for the build cache to record after (not computed twice). */
  cache?: FingerprintCache | undefined;
}

/** Writes every file of the model's tree to the target, then commits it; on failure the target is aborted. */
export async function writeTree(
  model: Model,
  target: OutputTarget,
  options: WriteTreeOptions = {},
): Promise<WriteStats> {
  const total = countTreeFiles(model);
  const { onProgress } = options;
  try {
    const written = await writeGroups(
      fileGroups(model, {
        hosts: options.hosts,
        renderingAll: true,
        pngs: options.pngs,
        cache: options.cache,
      }),
      target,
      (files) => {
        if (onProgress && files % 1000 === 0) onProgress(files, total);
      },
      options.onGroup,
    );
    await target.commit();
    onProgress?.(written.files, written.files);
    return written;
  } catch (error) {
    await target.abort().catch(() => undefined);
    throw error;
  }
}

// --- internal ---

async function writeGroups(
  groups: Iterable<FileGroup>,
  target: OutputTarget,
  onFile: (files: number) => void,
  onGroup: WriteTreeOptions['onGroup'],
): Promise<WriteStats> {
  const stats: WriteStats = { files: 0, bytes: 0 };
  for (const group of groups) {
    const paths: string[] = [];
    for (const file of group.render()) {
      // The target tells the size: it has just encoded the text (measuring it again cost a scan of every file).
      stats.bytes += await target.write(file.path, file.data);
      paths.push(file.path);
      stats.files++;
      onFile(stats.files);
    }
    await onGroup?.(group.key, group.fingerprint, paths);
  }
  return stats;
}
