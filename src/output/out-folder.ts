/**
 * Whether a folder may take a built tree, decided before any work: a build
 * replaces the folder whole (or updates it in place), writes a staging folder
 * beside it and keeps its manifest in `<out>.state/` beside it too. So the
 * folder must not be, hold or sit inside the content folder, nor be or hold
 * the folder the command runs in; it must be a folder (or not exist yet) in a
 * parent the user can write; and when it holds anything, that must be a tree
 * this tool built (its manifest names it), unless the user says `--force`. A refusal is a one-line
 * message, and nothing is touched.
 */
import { constants } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, parse, relative, resolve, sep } from 'node:path';

export type OutFolderCheck = { ok: true } | { ok: false; message: string };

interface OutFolderOptions {
  /** The content folder the tree is built from: the tree may not be, hold or sit inside it. */
  contentDir?: string | undefined;
  /** Replace a folder that holds files this tool did not write. */
  force?: boolean | undefined;
  /** Whether the folder's manifest names it as the tree it describes (a tree this tool built). */
  isRecordedTree: (outDir: string) => Promise<boolean>;
}

export async function checkOutFolder(
  outDir: string,
  options: OutFolderOptions,
): Promise<OutFolderCheck> {
  const shown = displayFolder(outDir);
  const absolute = resolve(outDir);
  if (parse(absolute).root === absolute)
    return refuse(
      `--out ${shown} is the root of the file system; give a folder of its own, such as dist`,
    );
  const real = await realPathOf(absolute);
  if (options.contentDir !== undefined) {
    const clash = await contentClash(real, options.contentDir, shown);
    if (clash) return refuse(clash);
  }
  const here = await realPathOf(process.cwd());
  if (isInside(here, real)) {
    // Renaming "." fails (EBUSY), and `${out}.state` would land inside the tree ("..state").
    return refuse(
      `--out ${shown} ${real === here ? 'is' : 'holds'} the folder you are in; a build replaces its output folder whole ` +
        'and keeps its state beside it, so give a folder below this one, such as dist',
    );
  }
  const info = await stat(absolute).catch(() => null);
  if (info && !info.isDirectory())
    return refuse(
      `--out ${shown} is a file, not a folder; give a folder (new, empty, or a tree built before)`,
    );
  const parent = await nearestExisting(dirname(absolute));
  if (!(await writable(parent))) {
    return refuse(
      `cannot write in ${parent}: the tree is written beside --out ${shown} first (${basename(absolute)}.tmp-…) and its manifest is kept in ${basename(absolute)}.state/ there`,
    );
  }
  if (!info) return { ok: true };
  if (!(await writable(absolute))) return refuse(`cannot write in --out ${shown}`);
  const names = await readdir(absolute);
  if (names.length === 0 || options.force) return { ok: true };
  // Only the manifest vouches for a tree: names a tree uses prove nothing, and a folder replaced whole loses what the user put in it.
  if (await options.isRecordedTree(absolute)) return { ok: true };
  const example = names.sort()[0]!;
  return refuse(
    `--out ${shown} is not empty and is not a tree this tool built (it holds ${JSON.stringify(example)}${names.length > 1 ? ` and ${names.length - 1} more` : ''}); ` +
      `no manifest in ${basename(absolute)}.state/ names it, and a build would replace it whole. ` +
      'Give a new or empty folder, or add --force to replace it',
  );
}

/** A folder as the user gave it, for messages: without trailing slashes (`dist/` → `dist`). */
export function displayFolder(folder: string): string {
  const trimmed = folder.replace(/[/\\]+$/, '');
  return trimmed === '' ? folder : trimmed;
}

// --- internal ---

function refuse(message: string): OutFolderCheck {
  return { ok: false, message: `${message}.` };
}

/** Why the tree cannot go at `out` given the content folder, or null. */
async function contentClash(
  out: string,
  contentDir: string,
  shown: string,
): Promise<string | null> {
  const content = await realPathOf(resolve(contentDir));
  const name = displayFolder(contentDir);
  if (out === content)
    return `--out ${shown} is the content folder; a build would replace the YAML with the tree. Give another folder, such as dist`;
  if (isInside(content, out))
    return `--out ${shown} holds the content folder ${name}; a build would replace it. Give a folder beside it, such as dist`;
  if (isInside(out, content)) {
    return `--out ${shown} is inside the content folder ${name} (${relative(content, out)}); the tree would be read as content. Give a folder outside it, such as dist`;
  }
  return null;
}

/** Whether `child` is `parent` or lies inside it (both real, absolute paths). */
function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** The real path of a folder that may not exist yet: its nearest existing ancestor resolved, the rest as given. */
async function realPathOf(absolute: string): Promise<string> {
  const existing = await nearestExisting(absolute);
  const real = await realpath(existing).catch(() => existing);
  return join(real, relative(existing, absolute));
}

async function nearestExisting(absolute: string): Promise<string> {
  let folder = absolute;
  while (
    !(await stat(folder).then(
      () => true,
      () => false,
    ))
  ) {
    const parent = dirname(folder);
    if (parent === folder) return folder;
    folder = parent;
  }
  return folder;
}

async function writable(folder: string): Promise<boolean> {
  return access(folder, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}
