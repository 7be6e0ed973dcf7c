/**
 * The sidecar as a function: a web Request in, a Response out, answered as
 * Weblate answers. Reads come from the tree's files
 * on disk and never wait for a write; writes go through the session's queue
 * and are answered once the tree shows them. A browser's preflight under
 * the API is answered first, and a tree with the status site serves its
 * pages, badges and exports (GET and HEAD) as the preview does. It never
 * listens: listen.ts bridges node:http to it, and tests may call it directly.
 */
import { shapesOf, type Release } from '../model/releases.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isParam, type RouteMatch } from '../api/match.ts';
import type { Route } from '../api/routes.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { pageCount } from '../api/pagination.ts';
import {
  isApiPreflight,
  isApiRequest,
  parseApiTarget,
  resolveFile,
  typeOfFile,
  type ApiTarget,
} from '../http/targets.ts';
import {
  readStatusSiteAnswer,
  resolveStatusSiteRequest,
  type StatusSiteResponse,
} from '../http/status-site-targets.ts';
import type { Session } from '../session/session.ts';
import { answersFormats, isExtraFormat } from '../api/formats.ts';
import { bodyOf, detail, errorAnswer, json, notFound, type Answer } from './answer.ts';
import { createKeyGate, type Credentials, type Keyring } from './auth.ts';
import { readFields } from './body.ts';
import {
  createLanguage,
  deleteLanguage,
  updateLanguage,
  type WriteContext,
} from './language-writes.ts';
import { deleteTranslation } from './translation-writes.ts';
import {
  AUTHENTICATE,
  ERRORS,
  JSON_TYPE,
  methodNotAllowed,
  serverError,
  VARY,
} from '../api/answers.ts';
import { refusalOf } from '../api/routes.ts';
import { basePath } from '../api/urls.ts';
import { ALLOW_ORIGIN, PREFLIGHT_ANSWER_HEADERS, PREFLIGHT_CONTENT_TYPE } from '../api/cors.ts';

interface SidecarAppOptions {
  session: Session;
  catalog: Catalog;
  keyring: Keyring;
  /** Answer every write 401 or 403, whatever the key. */
  readOnly?: boolean;
  /** Where a failure inside a request (a bug, or a failing disk) is reported; silent by default. */
  log?: (text: string) => void;
  /** Wrong keys one client address may send in a minute before it is answered 429 (0: no limit). */
  keyFailures?: number | undefined;
  /** The clock that times wrong keys (Date.now unless told). */
  now?: () => number;
}

/** The app's options and what one request brings: its credentials, checked when asked for. */
type Handling = SidecarAppOptions & { credentials(): Credentials };

/**
 * What came over the wire that a web Request cannot carry: the
 * request-target as sent (a URL parser would resolve `..` and `\` in it)
 * and a method the Fetch standard forbids (TRACE).
 */
interface Wire {
  target: string;
  method: string;
  /** The client's address, by which wrong keys are counted. */
  client?: string;
}

export type SidecarApp = (request: Request, wire?: Wire) => Promise<Response>;

/** Request-targets longer than this are refused with a 414. */
const MAX_TARGET = 8192;

export function createSidecarApp(options: SidecarAppOptions): SidecarApp {
  const log = options.log ?? (() => undefined);
  const gate = createKeyGate(options.keyring, { limit: options.keyFailures, now: options.now });
  return async (request, wire) => {
    const method = wire?.method ?? request.method;
    const target = wire?.target ?? targetOf(request.url);
    const settings = options.session.model.settings;
    const path = target.length > MAX_TARGET ? null : originFormOf(target);
    if (
      path !== null &&
      isApiPreflight(
        method,
        path,
        request.headers.get('access-control-request-method'),
        basePath(settings),
      )
    ) {
      return preflightResponse();
    }
    const page =
      settings.pages && path !== null
        ? resolveStatusSiteRequest(method, path, basePath(settings), settings.weblateVersion)
        : null;
    if (page)
      return statusSiteResponse(
        await readStatusSiteAnswer(options.session.outDir, page, settings),
        method,
      );
    let answer: Answer;
    const credentials = () => gate.check(request.headers.get('authorization'), wire?.client ?? '');
    try {
      answer = await answerRequest({ ...options, credentials }, request, method, target);
    } catch (error) {
      log(
        `Internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      const failure = serverError(settings.weblateVersion);
      answer = detail(500, failure.detail);
    }
    const cors = path !== null && isApiRequest(path, basePath(settings));
    return toResponse(
      cors ? { ...answer, headers: { ...answer.headers, ...ALLOW_ORIGIN } } : answer,
      method,
      settings.weblateVersion,
    );
  };
}

/** The body of OPTIONS (DRF's SimpleMetadata, without `actions`). */
function optionsBody(route: Route) {
  return {
    name: route.name,
    description: route.description,
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  };
}

// --- internal ---

async function answerRequest(
  options: Handling,
  request: Request,
  method: string,
  target: string,
): Promise<Answer> {
  if (target.length > MAX_TARGET) return errorAnswer(ERRORS.uriTooLong);
  const path = originFormOf(target);
  const settings = options.session.model.settings;
  const api =
    path === null
      ? null
      : parseApiTarget(path, basePath(settings), shapesOf(shapesOf(settings.weblateVersion)));
  if (!api) return notFound();
  const route = api.match.route;
  const answer = await (shapesOf(settings.weblateVersion) === '4' ? answerRoute : answerRoute2026)(
    options,
    request,
    method,
    api,
  );
  return { ...answer, headers: { ...answer.headers, Allow: route.allow } };
}

/**
 * A request in the 2026.8 flavour, in the order DRF's dispatch checks it
 * there: the format, then the key (a wrong one is a 401 for a read too),
 * then permissions (an anonymous write is a 401 whatever the method; a
 * resource Weblate refuses an anonymous reader its 401 or 403), and only
 * then the method.
 */
async function answerRoute2026(
  options: Handling,
  request: Request,
  method: string,
  api: ApiTarget,
): Promise<Answer> {
  const route = api.match.route;
  const format = api.query.get('format');
  const release = options.session.model.settings.weblateVersion;
  const flat = isExtraFormat(format) && answersFormats(route, release);
  if (format !== null && format !== 'json' && format !== 'api' && !flat) return notFound();
  const credentials = options.credentials();
  if (credentials.kind === 'throttled') return throttled(credentials.retryAfter);
  if (credentials.kind === 'invalid')
    return detail(401, credentials.detail, AUTHENTICATE, 'authentication_failed');
  const safe = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  if (!safe && credentials.kind === 'anonymous')
    return errorAnswer(ERRORS.notAuthenticated, AUTHENTICATE);
  const refusal =
    method === 'OPTIONS'
      ? undefined
      : refusalOf(route, shapesOf(options.session.model.settings.weblateVersion));
  // A key holder is refused too: the snapshot has no repository status or reports to show.
  if (refusal === 401 && credentials.kind === 'anonymous')
    return errorAnswer(ERRORS.notAuthenticated, AUTHENTICATE);
  if (refusal) return errorAnswer(ERRORS.permissionDenied);
  return answerRoute(options, request, method, api);
}

async function answerRoute(
  options: Handling,
  request: Request,
  method: string,
  api: ApiTarget,
): Promise<Answer> {
  const route = api.match.route;
  if (!route.allow.split(', ').includes(method)) return detail(405, methodNotAllowed(method));
  if (method === 'GET' || method === 'HEAD') return answerRead(options.session, api);
  if (method === 'OPTIONS') return json(200, optionsBody(route));
  return answerWrite(options, request, method, api.match);
}

/** GET and HEAD: the resource's file (or the page `?page=N` names), read from disk. */
async function answerRead(session: Session, api: ApiTarget): Promise<Answer> {
  const target = await withLastPage(session, api);
  const chosen = resolveFile(target);
  if (chosen.kind === 'error') return detail(chosen.status, chosen.detail);
  const text = await readResource(session, target, chosen.file);
  if (text === null) return detail(404, chosen.missing);
  return { status: 200, body: text, headers: { 'Content-Type': typeOfFile(chosen.file) } };
}

/**
 * The text of a resource's file; for a page of an instance-wide list whose
 * files lag the last write, the page as the session's model has it, so that
 * no answer after a write leaves that write out.
 */
async function readResource(
  session: Session,
  api: ApiTarget,
  file: string,
): Promise<string | null> {
  const { match, query } = api;
  if (match.route.paginated) {
    const page = match.page ?? Number(query.get('page') ?? '1');
    const pending = session.pendingListPage(match.path, page);
    if (pending !== undefined) return pending;
  }
  return readFile(join(session.outDir, file), 'utf8').catch(() => null);
}

/** `?page=last` (DRF takes it) as the number of the list's last page, read from the count of its first. */
async function withLastPage(session: Session, api: ApiTarget): Promise<ApiTarget> {
  const { match, query } = api;
  if (!match.route.paginated || match.page !== null || query.get('page') !== 'last') return api;
  const first = resolveFile({ match, query: new URLSearchParams() });
  if (first.kind === 'error') return api;
  const text = await readResource(session, { match, query: new URLSearchParams() }, first.file);
  const count = text === null ? null : (JSON.parse(text) as { count?: unknown }).count;
  if (typeof count !== 'number') return api;
  const last = new URLSearchParams(query);
  last.set('page', String(pageCount(count, session.model.settings.pageSize)));
  return { match, query: last };
}

/** A method the route allows besides GET, HEAD and OPTIONS: the key first, then the handler, if the sidecar has one. */
async function answerWrite(
  options: Handling,
  request: Request,
  method: string,
  match: RouteMatch,
): Promise<Answer> {
  const credentials = options.credentials();
  if (credentials.kind === 'throttled') return throttled(credentials.retryAfter);
  if (credentials.kind === 'anonymous') return errorAnswer(ERRORS.notAuthenticated, AUTHENTICATE);
  if (credentials.kind === 'invalid')
    return detail(401, credentials.detail, AUTHENTICATE, 'authentication_failed');
  const denied = () => errorAnswer(ERRORS.permissionDenied);
  if (options.readOnly) return denied();
  const context: WriteContext = { session: options.session, catalog: options.catalog };
  const params = paramsOf(match);
  switch (`${method} ${match.route.kind}`) {
    case 'POST languages':
      return createLanguage(context, await readFields(request));
    case 'PUT language':
      return updateLanguage(context, params.language!, await readFields(request), false);
    case 'PATCH language':
      return updateLanguage(context, params.language!, await readFields(request), true);
    case 'DELETE language':
      return deleteLanguage(context, params.language!);
    case 'DELETE translation':
      return deleteTranslation(
        options.session,
        params.project!,
        params.component!,
        params.language!,
      );
    default:
      return denied();
  }
}

/** DRF's answer to a throttled request. */
function throttled(seconds: number): Answer {
  const text = `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  return detail(429, text, { 'Retry-After': String(seconds) }, 'throttled');
}

/** The slugs and codes a path names, by parameter name: `{project: 'demo', component: 'ui'}`. */
function paramsOf(match: RouteMatch): Record<string, string> {
  const segments = match.path.split('/').slice(2, -1);
  const params: Record<string, string> = {};
  match.route.pattern.forEach((part, index) => {
    if (isParam(part)) params[part.slice(1)] = segments[index]!;
  });
  return params;
}

/** The path and query of a request-target in absolute form (`http://host/api/`), or as it is; null for `*` and the like. */
function originFormOf(target: string): string | null {
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  const path = absolute ? target.slice(absolute[0].length) || '/' : target;
  return path.startsWith('/') ? path : null;
}

/** A browser's preflight under the API: 200, no body, the CORS headers, whatever the path, key or method (django-cors-headers answers it first). */
function preflightResponse(): Response {
  return new Response(null, {
    status: 200,
    headers: {
      'Content-Type': PREFLIGHT_CONTENT_TYPE,
      'Content-Length': '0',
      ...PREFLIGHT_ANSWER_HEADERS,
    },
  });
}

/** A status-site answer (a page, badge, export, its redirect or its HTML 404) as sent. */
function statusSiteResponse(answer: StatusSiteResponse, method: string): Response {
  return new Response(method === 'HEAD' ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}

function targetOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

function toResponse(answer: Answer, method: string, version: Release): Response {
  const headers = new Headers({ Vary: VARY, ...answer.headers });
  const body = bodyOf(answer, version);
  if (body === undefined) return new Response(null, { status: answer.status, headers });
  const bytes = Buffer.from(body, 'utf8');
  // A read sets its file's type (CSV for ?format=csv); every other body is JSON.
  if (!headers.has('Content-Type')) headers.set('Content-Type', JSON_TYPE);
  headers.set('Content-Length', String(bytes.length));
  return new Response(method === 'HEAD' ? null : bytes, { status: answer.status, headers });
}
