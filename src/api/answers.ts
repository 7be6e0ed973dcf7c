/**
 * How Weblate answers besides the resources themselves: the response headers
 * of the contract (DESIGN section 4, spec sections 1.3 and 7) and the JSON
 * error bodies, as DRF words them. Host configuration, the preview and the
 * sidecar all answer with these.
 */
import { serializeFile } from '../output/serialize.ts';

export const JSON_TYPE = 'application/json';

/** DRF varies on Accept (two renderers); the snapshot answers JSON to every Accept. */
export const VARY = 'Accept';

export const NOT_FOUND = 'Not found.';
export const INVALID_PAGE = 'Invalid page.';

/** A DRF error body as the files are written: compact JSON and a newline. */
export function errorBody(detail: string): string {
  return serializeFile({ detail });
}

/** The body of a 405, as DRF words it. */
export function methodNotAllowed(method: string): string {
  return `Method "${method}" not allowed.`;
}
