/**
 * Host configuration written beside the API tree: one
 * adapter per host, each a pure function of the settings and the route
 * table. Every host's files are written under `hosts/<host>/`; the files that
 * any host may find at the root are too: `serve.json`, `.nojekyll` and
 * `404.html` (for hosts that look a 404 page up by name): the status site's
 * not-found page when the site is on, else the API's JSON 404 body.
 * Netlify and Cloudflare Pages both read `_redirects` and `_headers` from the
 * root with rules the other would misread, so those two names are filled
 * only when the build is told the host (`--host netlify|cloudflare`).
 */
import type { Settings } from '../model/types.ts';
import { renderCloudflareHeaders, renderCloudflareRedirects } from './cloudflare.ts';
import { renderCloudFrontFunction, renderS3Cors, renderS3Upload } from './cloudfront.ts';
import { API_NOT_FOUND_FILE, NOT_FOUND_FILE, SERVE_CONFIG_FILE, type HostFile } from './common.ts';
import { githubPagesFiles } from './github-pages.ts';
import { renderNetlifyHeaders, renderNetlifyRedirects } from './netlify.ts';
import { renderNginxConfig } from './nginx.ts';
import { renderServeConfig } from './serve.ts';
import { ERRORS, errorText } from '../api/answers.ts';
import { SITE_ROOT_NAMES } from '../api/urls.ts';
import { notFoundPage } from '../status-site/pages.ts';

export type { HostFile } from './common.ts';

/** Hosts whose `_redirects` and `_headers` can take the fixed names at the root. */
export const ROOT_HOSTS = ['netlify', 'cloudflare'] as const;
export type RootHost = (typeof ROOT_HOSTS)[number];

/**
 * Every name a build may write at a tree's root, under any settings: the API,
 * the status site's (`index.html`, `projects`, `widgets`, …) and the host
 * files. A content's extra file may not take one.
 */
export const TREE_ROOT_NAMES: ReadonlySet<string> = new Set([
  'api',
  ...SITE_ROOT_NAMES,
  'hosts',
  NOT_FOUND_FILE,
  SERVE_CONFIG_FILE,
  '.nojekyll',
  '_redirects',
  '_headers',
]);

export interface HostOptions {
  /** Whose `_redirects` and `_headers` to put at the root of the output; none when absent. */
  host?: RootHost | undefined;
}

export function hostFiles(settings: Settings, options: HostOptions = {}): HostFile[] {
  const redirectsAndHeaders: Record<RootHost, HostFile[]> = {
    netlify: [
      file('hosts/netlify/_redirects', renderNetlifyRedirects(settings)),
      file('hosts/netlify/_headers', renderNetlifyHeaders(settings)),
    ],
    cloudflare: [
      file('hosts/cloudflare/_redirects', renderCloudflareRedirects(settings)),
      file('hosts/cloudflare/_headers', renderCloudflareHeaders(settings)),
    ],
  };
  // The chosen host's pair again, under the names the host reads at the root.
  const atRoot = options.host
    ? redirectsAndHeaders[options.host].map((f) => file(f.path.replace(/^.*\//, ''), f.data))
    : [];
  return [
    file(NOT_FOUND_FILE, settings.pages ? notFoundPage(settings) : apiNotFoundBody(settings)),
    file(SERVE_CONFIG_FILE, renderServeConfig(settings)),
    ...githubPagesFiles(),
    ...atRoot,
    ...redirectsAndHeaders.netlify,
    ...redirectsAndHeaders.cloudflare,
    file('hosts/nginx/weblate-snapshot.conf', renderNginxConfig(settings)),
    file('hosts/cloudfront/function.js', renderCloudFrontFunction(settings)),
    file('hosts/s3/upload.sh', renderS3Upload(settings)),
    file('hosts/s3/cors.json', renderS3Cors()),
  ];
}

/**
 * The API's own 404 page in its folder, when the root's is the status site's
 * HTML page: Cloudflare Pages serves the nearest `404.html` to the path asked.
 * It belongs to the API root's group, whose folder it lies in.
 */
export function apiFolderHostFiles(settings: Settings): HostFile[] {
  return settings.pages ? [file(API_NOT_FOUND_FILE, apiNotFoundBody(settings))] : [];
}

/**
 * Why a site cannot be deployed to a host as configured, or null: Cloudflare
 * Pages cannot map `?page=N`, so `next` links of `pagination: query` would
 * lead back to page 1 for ever.
 */
export function hostProblem(settings: Settings, options: HostOptions): string | null {
  if (options.host === 'cloudflare' && settings.pagination === 'query') {
    return 'expected "path" with --host cloudflare: Cloudflare Pages cannot map ?page=N to a page file, so following next would repeat page 1 (got "query")';
  }
  return null;
}

// --- internal ---

/** The body of the API's 404 in the settings' flavour. */
function apiNotFoundBody(settings: Settings): string {
  return errorText(settings.weblateVersion, ERRORS.notFound);
}

function file(path: string, data: string): HostFile {
  return { path, data };
}
