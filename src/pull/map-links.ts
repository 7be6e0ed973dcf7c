/**
 * Links a build refuses (a project's `web`, a component's `repoweb` and
 * `license_url` that are not http(s) URLs, such as `javascript:…` from an
 * instance that let one through) are written empty, with a warning naming
 * the object: one bad link should not fail the whole pull, and a pull never
 * writes content that `check` then refuses.
 */
import { isWebLink } from '../content/web-link.ts';

/** Empties the links of a mapped project or component that a build would refuse. */
export function dropUnsafeLinks(
  value: Record<string, unknown>,
  what: string,
  warnings: string[],
): void {
  for (const field of LINK_FIELDS) {
    const link = value[field];
    if (typeof link !== 'string' || link === '' || isWebLink(link)) continue;
    // `web` and `repoweb` are "" by default, so left out; a `license_url` left out would be derived from the license.
    if (field === 'license_url') value[field] = '';
    else delete value[field];
    warnings.push(
      `${what} has ${field} ${JSON.stringify(link)}, not an http(s) URL, which a build refuses: the mirror writes it empty.`,
    );
  }
}

// --- internal ---

const LINK_FIELDS = ['web', 'repoweb', 'license_url'] as const;
