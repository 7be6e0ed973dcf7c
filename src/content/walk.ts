/**
 * Listing a content folder: every file below it, by its path relative to the
 * folder (with `/`), in code-point order. Symbolic links are never followed
 * (a link could lead outside the folder, or round in a loop): each one is
 * reported, as is a name a content path cannot hold (a control character, a
 * backslash). Names starting with a dot are passed over, as editors and
 * version control keep their own files there, except under `extra/`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compareStrings } from '../errors.ts';

interface ContentListing {
  files: string[];
  /** Entries that cannot be content, each with why. */
  refused: { path: string; message: string }[];
}

export async function listContentFiles(contentDir: string): Promise<ContentListing> {
  const listing: ContentListing = { files: [], refused: [] };
  const folders = [''];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    // One synchronous call per folder: a promise per folder waits its turn each time (a tenth of a millisecond, hundreds of folders).
    for (const entry of readdirSync(join(contentDir, folder), { withFileTypes: true })) {
      // Hosts read dotted names (.well-known/): in extra/, every name is content.
      if (entry.name.startsWith('.') && folder !== 'extra' && !folder.startsWith('extra/')) continue;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (UNFIT_NAME.test(entry.name)) listing.refused.push({ path, message: `expected a name without control characters or backslashes (got ${JSON.stringify(entry.name)})` });
      else if (entry.isSymbolicLink()) listing.refused.push({ path, message: 'expected a file or a folder, not a symbolic link (links are not followed)' });
      else if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile()) listing.files.push(path);
    }
  }
  listing.files.sort(compareStrings);
  listing.refused.sort((a, b) => compareStrings(a.path, b.path));
  return listing;
}

// --- internal ---

// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const UNFIT_NAME = /[\u0000-\u001f\u007f\\]/;
