/**
 * The content's extra files (`extra/`: a `CNAME`, a `robots.txt`,
 * `.well-known/…`) in the tree: each is a group of its own, keyed by its path
 * (not a folder: when it is gone, only the file goes), holding that one file
 * as it is. A name the build writes itself at the root is refused.
 */
import { join } from 'node:path';
import type { ContentError } from '../errors.ts';
import { TREE_ROOT_NAMES } from '../hosts/index.ts';
import { Hasher } from '../model/fingerprint.ts';
import type { ExtraFile, Model } from '../model/types.ts';
import type { FileText } from '../output/serialize.ts';
import { openContent } from '../resolve/open.ts';

/** The group of one extra file (a FileGroup of groups.ts, which imports this module). */
export function extraGroup(extra: ExtraFile): {
  key: string;
  fingerprint: number;
  render(): { path: string; data: FileText }[];
} {
  return {
    key: `/${extra.path}`,
    fingerprint: new Hasher().text('extra').text(extra.hash).digest(),
    render: () => [{ path: extra.path, data: [extra.bytes] }],
  };
}

/** Whether a group's key names a file (an extra file's) rather than a folder. */
export function isFileKey(key: string): boolean {
  return !key.endsWith('/');
}

/** The content opened for a tree: every error of openContent, then extra files at names the tree takes. */
export async function openTreeContent(
  contentDir: string,
  options: Parameters<typeof openContent>[1],
): ReturnType<typeof openContent> {
  const opened = await openContent(contentDir, options);
  if (!opened.ok) return opened;
  const collisions = extraCollisions(opened.model, contentDir);
  return collisions.length > 0 ? { ok: false, errors: collisions } : opened;
}

/** An error for each extra file at a name the build writes (`api/…`, `index.html`, `_headers`, …). */
export function extraCollisions(model: Model, contentDir: string): ContentError[] {
  const errors: ContentError[] = [];
  for (const extra of model.extras ?? []) {
    const [first, ...rest] = extra.path.split('/');
    if (!TREE_ROOT_NAMES.has(first!)) continue;
    const taken = rest.length > 0 ? `the folder ${first}/` : first;
    errors.push({
      file: join(contentDir, 'extra', extra.path),
      line: 1,
      column: 1,
      path: '',
      message: `expected a path the build does not write itself (got extra/${extra.path}, which would take ${taken} of the tree)`,
    });
  }
  return errors;
}
