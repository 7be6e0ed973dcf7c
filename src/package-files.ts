/**
 * Files of the package itself (its data, its sources, package.json), found
 * from wherever this code runs: the TypeScript sources, the package's
 * compiled copy in lib/, or the tests' copy in node_modules/.cache/, each at
 * another depth. The package's root is the first folder above this file whose
 * package.json names the package.
 */
import { readFileSync } from 'node:fs';

const NAME = 'weblate-snapshot';

/** The URL of a file of the package, from its root (`data/languages/catalog.json`). */
export function packageFile(path: string): URL {
  return new URL(path, packageRoot());
}

// --- internal ---

let root: URL | null = null;

function packageRoot(): URL {
  if (root) return root;
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    if (nameAt(dir) === NAME) return (root = dir);
    if (dir.pathname === '/')
      throw new Error(`no package.json of ${NAME} above ${import.meta.url}`);
  }
}

function nameAt(dir: URL): string | null {
  try {
    return (
      (JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string }).name ??
      null
    );
  } catch {
    return null;
  }
}
