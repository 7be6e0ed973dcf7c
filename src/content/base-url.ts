/**
 * What a base URL (`base_url`, `web_url`, `--base-url`, `--web-url`) may be.
 * Every link of the snapshot is written from it, and the host configuration
 * writes its host name and path into nginx, shell and redirect files, so it
 * is held to what `new URL` accepts, a plain host name, and a path of
 * URL-safe characters only: nothing a shell, nginx or JSON would read as
 * syntax. The one place that decides it: the schema and the command line both
 * ask here.
 */

type BaseUrlCheck = { ok: true; url: string } | { ok: false; expected: string };

const BASE_URL_EXAMPLE = 'https://l10n.example.org';

/**
 * Checks a base URL and gives it as links are written from it: scheme and
 * host in lower case, no default port, no trailing slash. `api: true` also
 * refuses a URL that names the API itself (`…/api/`), since the API is at
 * `<base URL>/api/`.
 */
export function checkBaseUrl(text: string, options: { api?: boolean } = {}): BaseUrlCheck {
  const refuse = (why: string): BaseUrlCheck => ({ ok: false, expected: `expected an http(s) URL such as ${BASE_URL_EXAMPLE}, ${why}` });
  const raw = RAW_URL.exec(text);
  if (!raw) return refuse('with a host and an optional path');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('that parses as a URL (a port from 0 to 65535, a valid host)');
  }
  if (url.username || url.password) return refuse('without user name or password');
  if (!HOST_NAME.test(url.hostname) && !IPV6_HOST.test(url.hostname)) {
    return refuse('whose host has only letters, digits, ".", "-" and "_"');
  }
  const path = raw[1] ?? '';
  // Hosts match a request by its decoded path, so an escaped base path (nginx's `location /a%20b/`) never matches.
  if (path.includes('%')) return refuse('whose path has no %XX escapes (hosts match the decoded path, so no request would match)');
  if (!SAFE_PATH.test(path)) return refuse('whose path has only letters, digits, "/", ".", "-", "_" and "~"');
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return refuse('whose path has no "." or ".." segment');
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (options.api && /\/api$/.test(base)) {
    return {
      ok: false,
      expected: `expected the base URL the API hangs under, not the API itself: the API is at <base URL>/api/, so give ${base.slice(0, -'/api'.length) || url.origin}`,
    };
  }
  return { ok: true, url: base };
}

// --- internal ---

/** Scheme, authority, then the path; no query, fragment, space or backslash anywhere. */
const RAW_URL = /^https?:\/\/[^/?#\s\\]+(\/[^?#\s\\]*)?$/i;
const HOST_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/;
const IPV6_HOST = /^\[[0-9a-f:.]+\]$/;
const SAFE_PATH = /^[A-Za-z0-9._~/-]*$/;
