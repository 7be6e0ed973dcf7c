/**
 * Host configuration written beside the API tree (DESIGN section 4): one
 * adapter per host, each a pure function of the site settings and the route
 * table. The build writes what this returns at the root of the output folder.
 */
import type { Site } from '../model/types.ts';

export type { OutputFile as HostFile } from '../resources/groups.ts';
import type { OutputFile } from '../resources/groups.ts';

export function hostFiles(_site: Site): OutputFile[] {
  return [];
}
