/**
 * Host configuration written beside the API tree (DESIGN section 4): one
 * adapter per host, each a pure function of the site settings and the route
 * table. The build writes what this returns at the root of the output folder.
 */
import type { Site } from '../model/types.ts';

export interface HostFile {
  /** Path relative to the output root, with `/`. */
  path: string;
  data: string;
}

export function hostFiles(_site: Site): HostFile[] {
  return [];
}
