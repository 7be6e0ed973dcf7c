/**
 * What a link the snapshot shows as it is (a project's `web`, a component's
 * `repoweb` and `license_url`) may be: an http(s) URL, or empty for none.
 * The status site writes these into `href`s and API readers follow them, so a
 * `javascript:` or `data:` link is refused. The schema and `pull` both ask here.
 */

/** The "expected …" half of the error for a link that is not an http(s) URL. */
export const WEB_LINK_EXPECTATION = 'expected an http(s) URL such as https://example.org/ or ""';

/** Whether a non-empty link is an http(s) URL a browser opens as a page. */
export function isWebLink(text: string): boolean {
  if (!WEB_LINK.test(text)) return false;
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
}

// --- internal ---

/** The scheme, then anything but spaces and control characters. */
// eslint-disable-next-line no-control-regex
const WEB_LINK = /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i;
