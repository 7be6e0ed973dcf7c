/**
 * nginx: two `map`s and a complete `server {}` block, in one file meant for
 * the `http {}` context (Debian's /etc/nginx/conf.d/*.conf is included there).
 * One regex location per route sends the path, with or without its trailing
 * slash, to its `index.json` (or, with `?page=N`, to the page file); every
 * location repeats its `add_header … always` lines, because a location that
 * adds a header drops the ones of its server. Methods other than GET and HEAD
 * get a 405 from `if (…) { return 405 …; }` (`limit_except` would give 403),
 * misses a JSON 404 from a named location. In the 2026.8 flavour a write is
 * a 401 first (Weblate checks permissions before methods), OPTIONS a 405,
 * and a resource Weblate refuses an anonymous reader a 401 or 403, each in
 * that flavour's error body. Under the API every answer carries
 * Access-Control-Allow-Origin, and a browser's preflight is answered 200
 * by the server itself before any location is looked at, as Weblate's CORS
 * middleware answers it before its views.
 */
import { shapesOf, type Release } from '../model/releases.ts';
import { isParam, PAGE_NUMBER, paramPattern } from '../api/match.ts';
import { refusalOf, routesOf, type Route } from '../api/routes.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Settings } from '../model/types.ts';
import { PAGE_SEGMENT, basePath } from '../api/urls.ts';
import { generatedBy } from './common.ts';
import {
  ERRORS,
  errorText,
  JSON_TYPE,
  methodNotAllowed,
  readError,
  refusalError,
  VARY,
} from '../api/answers.ts';
import { ALLOW_ORIGIN, PREFLIGHT_ANSWER_HEADERS } from '../api/cors.ts';
import {
  CSV_TYPE,
  EXTRA_FORMATS,
  formatFileName,
  formatRoutes,
  type ExtraFormat,
} from '../api/formats.ts';
import {
  statusSiteLocations,
  statusSiteMaps,
  statusSiteNotFoundLocations,
  statusSiteTypes,
} from './nginx-status-site.ts';

/** Where the server block looks for the tree unless told otherwise. */
const NGINX_DEFAULT_ROOT = '/var/www/weblate-snapshot';

interface NginxOptions {
  /** The folder that holds `api/` (the output folder, or a copy of it). */
  root?: string;
  /** The `listen` parameter; by default the base URL's port, on loopback when its host is. */
  listen?: string;
}

/** The configuration file: maps for the http context, then the server block. */
export function renderNginxConfig(settings: Settings, options: NginxOptions = {}): string {
  const root = options.root ?? NGINX_DEFAULT_ROOT;
  const listen = options.listen ?? defaultListen(settings);
  const version = shapesOf(settings.weblateVersion);
  // The error bodies follow the release (5.0-5.9 keep DRF's), the routes its shapes.
  const release = settings.weblateVersion;
  const notFound = errorText(release, ERRORS.notFound);
  const formats = formatRoutes(routesOf(version), settings.weblateVersion);
  return [
    `# ${generatedBy(settings, 'nginx')}`,
    '# Include it in the http {} block, e.g. as /etc/nginx/conf.d/weblate-snapshot.conf,',
    '# and set `root` to the folder that holds api/ (the build output or a copy of it).',
    '',
    ...pageMaps(),
    ...(version === '4' ? [] : authenticateMap()),
    ...corsMaps(basePath(settings)),
    ...(settings.pages ? statusSiteMaps(basePath(settings), settings.weblateVersion) : []),
    ...formatMaps(formats, basePath(settings), version, settings.pages),
    '',
    'server {',
    ...indent([
      `listen ${listen};`,
      ...tlsNote(settings),
      `server_name ${new URL(settings.baseUrl).hostname};`,
      `root ${root};`,
      '',
      ...(settings.pages ? statusSiteTypes() : ['charset off;', `types { ${JSON_TYPE} json; }`]),
      `default_type ${JSON_TYPE};`,
      '',
      ...corsHeaders(),
      '',
      "# A browser's preflight under the API is answered first, as django-cors-headers does.",
      'if ($weblate_snapshot_preflight) {',
      '    return 200;',
      '}',
      '',
      ...(formats.length > 0
        ? ['# ?format=json and ?format=api answer JSON; the statistics take csv and json-flat too.']
        : ['# ?format=json and ?format=api both answer JSON; Weblate has no other format.']),
      formats.length > 0
        ? 'if ($weblate_snapshot_refused_format) {'
        : settings.pages
          ? 'if ($weblate_snapshot_unknown_format) {'
          : 'if ($arg_format !~ "^(json|api)?$") {',
      `    return 404 ${quote(notFound)};`,
      '}',
      ...routesOf(version).flatMap((route) => [
        '',
        ...routeLocation(route, basePath(settings), release, formats.includes(route)),
      ]),
      ...(settings.pages
        ? statusSiteLocations(basePath(settings), release).flatMap((location) => ['', ...location])
        : []),
      '',
      ...errorLocation('@weblate_snapshot_not_found', notFound),
      ...errorLocation('@weblate_snapshot_invalid_page', errorText(release, ERRORS.invalidPage)),
      ...notFoundLocations(settings, notFound),
    ]),
    '}',
    '',
  ].join('\n');
}

// --- internal ---

function defaultListen(settings: Settings): string {
  const url = new URL(settings.baseUrl);
  const port = url.port || '80';
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!loopback) return port;
  return url.hostname === '[::1]' ? `[::1]:${port}` : `127.0.0.1:${port}`;
}

function tlsNote(settings: Settings): string[] {
  if (!settings.baseUrl.startsWith('https:')) return [];
  return [
    '# The snapshot links to https://: terminate TLS in front of this server, or',
    '# listen 443 ssl here with your ssl_certificate and ssl_certificate_key.',
  ];
}

/** `?page=` → the page folder to look in, and which 404 a list gives when its file is missing. */
function pageMaps(): string[] {
  return [
    '# ?page=N of a list: page 1 is the list itself, page N >= 2 its file ~page/N/;',
    '# anything else names a folder no tree has, so the list answers "Invalid page.".',
    'map $arg_page $weblate_snapshot_page {',
    '    default "~invalid-page/";',
    '    "" "";',
    '    "1" "";',
    `    "~${PAGE_NUMBER.source}" "${PAGE_SEGMENT}/$arg_page/";`,
    '}',
    '',
    'map "$weblate_snapshot_path_page$arg_page" $weblate_snapshot_list_404 {',
    '    default @weblate_snapshot_invalid_page;',
    '    "" @weblate_snapshot_not_found;',
    '    "1" @weblate_snapshot_not_found;',
    '}',
  ];
}

function routeLocation(route: Route, base: string, release: Release, formats: boolean): string[] {
  const version = shapesOf(release);
  const dir = routeDir(route, version);
  const pages = route.paginated
    ? `(?<weblate_snapshot_path_page>/${PAGE_SEGMENT}/[1-9][0-9]*)?`
    : '';
  const regex = `^${escapeRegex(base)}(?<weblate_snapshot_dir>${dir}${pages})(?:/|/index\\.json)?$`;
  const refusal = refusalOf(route, version);
  return [
    `# ${route.kind}`,
    `location ~ "${regex}" {`,
    ...indent([
      ...methodChecks(release),
      `add_header Allow "${route.allow}" always;`,
      `add_header Vary ${VARY} always;`,
      CORS_HEADER,
      ...(version === '4'
        ? []
        : ['add_header WWW-Authenticate $weblate_snapshot_authenticate always;']),
      ...(refusal
        ? [`return ${refusal} ${quote(errorText(release, refusalError(refusal)))};`]
        : [
            route.paginated
              ? 'error_page 404 $weblate_snapshot_list_404;'
              : 'error_page 404 @weblate_snapshot_not_found;',
            ...(formats ? formatFiles(route) : jsonFiles(route)),
          ]),
    ]),
    '}',
  ];
}

/** The route's path below the base: `/api/projects/<slug pattern>/statistics`. */
function routeDir(route: Route, version: WeblateVersion): string {
  return [
    '/api',
    ...route.pattern.map((part) => (isParam(part) ? paramPattern(part, version) : part)),
  ].join('/');
}

function jsonFiles(route: Route): string[] {
  return [
    route.paginated
      ? 'try_files $weblate_snapshot_dir/${weblate_snapshot_page}index.json =404;'
      : 'try_files $weblate_snapshot_dir/index.json =404;',
  ];
}

/**
 * A statistics route (5.10 and later): the file of its `?format=`, typed as Weblate types it.
 * The location's own types replace the server's, so JSON is listed again.
 */
function formatFiles(route: Route): string[] {
  const [csvType, charset] = CSV_TYPE.split('; charset=');
  return [
    `types { ${JSON_TYPE} json; ${csvType} csv; }`,
    `charset ${charset};`,
    `charset_types ${csvType};`,
    route.paginated
      ? 'try_files $weblate_snapshot_dir/${weblate_snapshot_page}$weblate_snapshot_format_file =404;'
      : 'try_files $weblate_snapshot_dir/$weblate_snapshot_object_format_file =404;',
  ];
}

/**
 * With the statistics' formats (5.10 and later): the file each format names (json-flat is the
 * JSON itself where the JSON is no page), and which `?format=` a path refuses: any but JSON's
 * outside the statistics, under the API only when the status site is on (its pages ignore it).
 */
function formatMaps(
  formats: readonly Route[],
  base: string,
  version: WeblateVersion,
  pages: boolean,
): string[] {
  if (formats.length === 0) return [];
  const paths = formats.map((route) => {
    const paged = route.paginated ? `(?:/${PAGE_SEGMENT}/[1-9][0-9]*)?` : '';
    return `${routeDir(route, version)}${paged}`;
  });
  const file = (format: ExtraFormat, route: Route) => formatFileName(route, format);
  const paged = formats.find((route) => route.paginated)!;
  const object = formats.find((route) => !route.paginated)!;
  return [
    '',
    '# ?format=csv and ?format=json-flat of the statistics: the files beside their JSON.',
    'map $arg_format $weblate_snapshot_format_file {',
    '    default index.json;',
    ...EXTRA_FORMATS.map((format) => `    ${format} ${file(format, paged)};`),
    '}',
    '',
    'map $arg_format $weblate_snapshot_object_format_file {',
    '    default index.json;',
    ...EXTRA_FORMATS.map((format) => `    ${format} ${file(format, object)};`),
    '}',
    '',
    'map "$arg_format&$uri" $weblate_snapshot_refused_format {',
    `    default ${pages ? 0 : 1};`,
    '    "~^(json|api)?&" 0;',
    `    "~^(${EXTRA_FORMATS.join('|')})&${escapeRegex(base)}(?:${paths.join('|')})(?:/|/index\\.json)?$" 0;`,
    ...(pages ? [`    "~^[^&]*&${escapeRegex(base)}/api(?:/|$)" 1;`] : []),
    '}',
  ];
}

/** 4.x: every method but GET and HEAD is a 405. 2026.8: OPTIONS is, and any other an anonymous write, a 401. */
function methodChecks(release: Release): string[] {
  if (shapesOf(release) === '4') {
    return [
      'if ($request_method !~ ^(GET|HEAD)$) {',
      `    return 405 ${quote('{"detail":"Method \\"$request_method\\" not allowed."}\n')};`,
      '}',
    ];
  }
  return [
    'if ($request_method = OPTIONS) {',
    `    return 405 ${quote(errorText(release, readError(405, methodNotAllowed('OPTIONS'))))};`,
    '}',
    'if ($request_method !~ ^(GET|HEAD|OPTIONS)$) {',
    `    return 401 ${quote(errorText(release, ERRORS.notAuthenticated))};`,
    '}',
  ];
}

/** `WWW-Authenticate: Token` on a 401 only: add_header leaves out a header whose value is empty. */
function authenticateMap(): string[] {
  return [
    '',
    'map $status $weblate_snapshot_authenticate {',
    '    default "";',
    '    401 Token;',
    '}',
  ];
}

/**
 * What no location above takes: the JSON 404 everywhere, or with the status
 * site the JSON 404 under the API and the site's HTML 404 page elsewhere.
 */
function notFoundLocations(settings: Settings, notFound: string): string[] {
  if (!settings.pages) return errorLocation('/', notFound);
  return [
    ...errorLocation(`${basePath(settings)}/api/`, notFound),
    ...statusSiteNotFoundLocations().flatMap((location) => ['', ...location]),
  ];
}

function errorLocation(name: string, body: string): string[] {
  return [
    `location ${name} {`,
    `    add_header Vary ${VARY} always;`,
    `    ${CORS_HEADER}`,
    `    return 404 ${quote(body)};`,
    '}',
  ];
}

/** The API's CORS header, in every location that adds headers of its own (it then inherits none of the server's). */
const CORS_HEADER = 'add_header Access-Control-Allow-Origin $weblate_snapshot_cors always;';

/**
 * `$weblate_snapshot_cors`: `*` for a request under the API (by the path as
 * sent, so a file's path after try_files does not count), else empty, which
 * add_header leaves out. `$weblate_snapshot_preflight`: 1 for OPTIONS under
 * the API naming the method it asks about; the preflight's headers are empty
 * otherwise.
 */
function corsMaps(base: string): string[] {
  const preflight = (name: string, value: string) => [
    '',
    `map $weblate_snapshot_preflight $weblate_snapshot_preflight_${name} {`,
    '    default "";',
    `    1 "${value}";`,
    '}',
  ];
  return [
    '',
    '# CORS as Weblate answers it (django-cors-headers, every origin, paths under /api/).',
    'map $request_uri $weblate_snapshot_cors {',
    '    default "";',
    `    "~^${escapeRegex(base)}/api(?:[/?]|$)" "${ALLOW_ORIGIN['Access-Control-Allow-Origin']}";`,
    '}',
    '',
    'map "$request_method:$weblate_snapshot_cors:$http_access_control_request_method" $weblate_snapshot_preflight {',
    '    default "";',
    '    "~^OPTIONS:\\*:." 1;',
    '}',
    ...preflight('methods', PREFLIGHT_ANSWER_HEADERS['Access-Control-Allow-Methods']),
    ...preflight('headers', PREFLIGHT_ANSWER_HEADERS['Access-Control-Allow-Headers']),
    ...preflight('max_age', PREFLIGHT_ANSWER_HEADERS['Access-Control-Max-Age']),
  ];
}

/** The server's own headers: what a location without add_header lines, and the server's early returns, answer with. */
function corsHeaders(): string[] {
  return [
    CORS_HEADER,
    'add_header Access-Control-Allow-Methods $weblate_snapshot_preflight_methods always;',
    'add_header Access-Control-Allow-Headers $weblate_snapshot_preflight_headers always;',
    'add_header Access-Control-Max-Age $weblate_snapshot_preflight_max_age always;',
  ];
}

/** A single-quoted nginx string: backslashes doubled, newlines as `\n`. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function indent(lines: string[]): string[] {
  return lines.map((line) => (line ? `    ${line}` : line));
}
