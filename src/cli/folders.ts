/** Folder flags checked before any work: a missing content folder is a usage error, not an empty API. */
import { statSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { displayFolder } from '../output/out-folder.ts';

/** The content folder as given, once it is known to be a folder (else a usage error naming it). */
export function contentFolder(dir: string): string {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (!info)
    throw new UsageError(
      `--content ${displayFolder(dir)} does not exist; give the folder that holds site.yaml and projects/`,
    );
  if (!info.isDirectory())
    throw new UsageError(
      `--content ${displayFolder(dir)} is a file, not a folder; give the folder that holds site.yaml and projects/`,
    );
  return displayFolder(dir);
}

/** The output folder as given, without trailing slashes (`dist/` → `dist`), so that what goes beside it stays beside it. */
export function outFolder(dir: string): string {
  return displayFolder(dir);
}
