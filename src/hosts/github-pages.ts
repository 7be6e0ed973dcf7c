/**
 * GitHub Pages serves the tree as it is: `index.json` works as a folder
 * index and `.json` files are served as application/json, but no custom
 * header can be set and the query is ignored (build with `pagination: path`).
 * Without `.nojekyll` GitHub runs Jekyll over the tree first, which skips
 * names starting with `_` or `.`; with it the files are published as they are.
 */
import type { HostFile } from './common.ts';

export function githubPagesFiles(): HostFile[] {
  return [{ path: '.nojekyll', data: '' }];
}
