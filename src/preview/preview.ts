/**
 * The preview: serve-handler with the tree's own serve.json, behind what a host would do (the
 * targets of http/, JSON errors, preflights, the status site), over the server the sidecar uses
 * too (http/server.ts). Links that lead where the tree will be published are moved to the
 * preview's address in what it answers (links.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import serveHandler from 'serve-handler';
import { SERVE_CONFIG_FILE } from '../hosts/common.ts';
import type { ServeConfig } from '../hosts/serve.ts';
import { isApiPreflight, isApiRequest, resolvePreviewRequest } from '../http/targets.ts';
import { readStatusSiteAnswer, resolveStatusSiteRequest } from '../http/status-site-targets.ts';
import { readTreeSettings } from '../tree/settings.ts';
import { mayHoldLinks, previewRewrite, rewriteLinks, type LinkRewrite } from './links.ts';
import { sendJsonError, serveHttp } from '../http/server.ts';
import { AUTHENTICATE, flavourOfRoot, readError, type ApiError } from '../api/answers.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Release } from '../model/releases.ts';
import type { Settings } from '../model/types.ts';
import { ALLOW_ORIGIN, PREFLIGHT_ANSWER_HEADERS, PREFLIGHT_CONTENT_TYPE } from '../api/cors.ts';

interface PreviewOptions {
  outDir: string;
  /** Address to bind; 127.0.0.1 unless told otherwise. */
  bind?: string;
  /** 0 picks a free port. */
  port: number;
  /** Where to report a failure inside a request (a bug); silent by default. */
  log?: (text: string) => void;
}

interface Preview {
  /** The API root as served: `http://127.0.0.1:8080/api/`. */
  url: string;
  /** The links moved to the preview's address in what it answers; null when they lead there already. */
  rewrite: LinkRewrite | null;
  close(): Promise<void>;
}

type StartResult = { ok: true; preview: Preview } | { ok: false; message: string };

/** Starts serving a built tree; a missing tree or a busy port is a message, not a throw. */
export async function startPreview(options: PreviewOptions): Promise<StartResult> {
  const outDir = resolve(options.outDir);
  const tree = await readTree(outDir);
  if (!tree.ok) return tree;
  // Known once the port is bound, before any request can arrive.
  let rewrite: LinkRewrite | null = null;
  const started = await serveHttp(
    (request, response) => answerRewritten(request, response, outDir, tree, rewrite),
    { bind: options.bind, port: options.port, version: tree.errors, log: options.log },
  );
  if (!started.ok) return started;
  const { origin, close } = started.server;
  rewrite = previewRewrite(tree.baseUrl, origin);
  return { ok: true, preview: { url: `${origin}${tree.base}/api/`, rewrite, close } };
}

/** Says, when the preview moves the tree's links, from where to where (the files stay as built). */
export function linkNote(preview: Preview): string | null {
  if (!preview.rewrite) return null;
  const { from, to } = preview.rewrite;
  return `Links to ${from} are answered as ${to}; the files keep them as built.`;
}

// --- internal ---

interface Tree {
  ok: true;
  config: ServeConfig;
  baseUrl: string;
  /** The path of the base URL: `` or `/l10n`. */
  base: string;
  /** The flavour the tree speaks (its API root's keys say). */
  version: WeblateVersion;
  /** The release whose error bodies it answers: the one it was built in, else its flavour's. */
  errors: Release;
  /** Whether it was built with the status site (its settings say; off for a tree without them). */
  pages: boolean;
  /** The settings it was built with, when it has the status site: its not-found page is drawn from them. */
  settings: Settings | null;
}

/** The tree's serve.json and the base URL its API root links to. */
async function readTree(outDir: string): Promise<Tree | { ok: false; message: string }> {
  const notBuilt = {
    ok: false as const,
    message: `${outDir} is not a built tree (no ${SERVE_CONFIG_FILE} and api/index.json); run npm run build first.`,
  };
  let config: ServeConfig;
  let root: { projects: string };
  try {
    config = JSON.parse(await readFile(join(outDir, SERVE_CONFIG_FILE), 'utf8')) as ServeConfig;
    root = JSON.parse(await readFile(join(outDir, 'api/index.json'), 'utf8')) as {
      projects: string;
    };
  } catch {
    return notBuilt;
  }
  const baseUrl = root.projects.replace(/\/api\/projects\/$/, '');
  // A tree built before the CORS answers has no rule for them in its serve.json.
  config.headers = [...config.headers, { source: 'api/**', headers: headerList(ALLOW_ORIGIN) }];
  const base = new URL(baseUrl).pathname.replace(/\/$/, '');
  const site = (await readTreeSettings(outDir))?.site ?? null;
  const pages = site?.pages === true;
  const version = flavourOfRoot(Object.keys(root));
  const errors = site?.weblateVersion ?? version;
  return { ok: true, config, baseUrl, base, version, errors, pages, settings: pages ? site : null };
}

/** Answers as the tree is built, or, with links to move, the same answer caught whole and rewritten. */
async function answerRewritten(
  request: IncomingMessage,
  response: ServerResponse,
  outDir: string,
  tree: Tree,
  rewrite: LinkRewrite | null,
): Promise<void> {
  if (!rewrite) return answer(request, response, outDir, tree);
  // A range of the file's bytes is not one of the rewritten answer's; a HEAD needs the length of the GET's body.
  delete request.headers.range;
  const head = request.method === 'HEAD';
  if (head) request.method = 'GET';
  const caught = new CaughtAnswer();
  await answer(request, caught as unknown as ServerResponse, outDir, tree);
  const { status, headers, body } = await caught.whole;
  const type = headers.get('content-type')?.[1];
  const text = mayHoldLinks(type === undefined ? undefined : String(type));
  const sent = text ? Buffer.from(rewriteLinks(body.toString('utf8'), rewrite)) : body;
  const location = headers.get('location');
  if (location) location[1] = rewriteLinks(String(location[1]), rewrite);
  headers.set('content-length', ['Content-Length', String(sent.length)]);
  response.writeHead(status, Object.fromEntries(headers.values()));
  response.end(head ? undefined : sent);
}

/** A stand-in for a ServerResponse that keeps the status, headers and body of an answer until it ends. */
class CaughtAnswer extends Writable {
  statusCode = 200;
  headersSent = false;
  /** By lower-case name: the name as set, and the value. */
  private readonly headers = new Map<string, [string, number | string | string[]]>();
  private readonly chunks: Buffer[] = [];
  readonly whole = new Promise<{
    status: number;
    headers: Map<string, [string, number | string | string[]]>;
    body: Buffer;
  }>((done, failed) => {
    this.once('finish', () =>
      done({ status: this.statusCode, headers: this.headers, body: Buffer.concat(this.chunks) }),
    );
    this.once('error', failed);
  });

  setHeader(name: string, value: number | string | string[]): this {
    this.headers.set(name.toLowerCase(), [name, value]);
    return this;
  }

  writeHead(status: number, headers: Record<string, number | string | string[]> = {}): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, next: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    next();
  }
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  outDir: string,
  tree: Tree,
): Promise<void> {
  const method = request.method ?? 'GET';
  const url = request.url ?? '/';
  if (isApiPreflight(method, url, request.headers['access-control-request-method'], tree.base))
    return sendPreflight(response);
  const site = tree.settings
    ? resolveStatusSiteRequest(method, url, tree.base, tree.settings.weblateVersion)
    : null;
  if (site && tree.settings) {
    const answered = await readStatusSiteAnswer(outDir, site, tree.settings);
    response.writeHead(answered.status, answered.headers);
    response.end(method === 'HEAD' ? undefined : answered.body);
    return;
  }
  const cors = isApiRequest(url, tree.base) ? ALLOW_ORIGIN : {};
  const decision = resolvePreviewRequest(method, url, tree.base, tree.version);
  if (decision.kind === 'error') {
    return sendError(response, tree.errors, readError(decision.status, decision.detail), {
      ...cors,
      ...allowOf(decision.allow),
    });
  }
  const found = await stat(join(outDir, decision.file)).catch(() => null);
  if (!found?.isFile())
    return sendError(response, tree.errors, readError(404, decision.missing), cors);
  request.url = encodeURI(`/${decision.file}`);
  await serveHandler(request, response, { ...tree.config, public: outDir });
}

function sendError(
  response: ServerResponse,
  version: Release,
  error: ApiError,
  headers: Record<string, string> = {},
): void {
  sendJsonError(response, version, error, {
    ...headers,
    ...(error.status === 401 ? AUTHENTICATE : {}),
  });
}

/** A browser's preflight under the API: 200, no body, the CORS headers (as django-cors-headers answers it). */
function sendPreflight(response: ServerResponse): void {
  response.writeHead(200, {
    'Content-Type': PREFLIGHT_CONTENT_TYPE,
    'Content-Length': 0,
    ...PREFLIGHT_ANSWER_HEADERS,
  });
  response.end();
}

function allowOf(allow: string | undefined): Record<string, string> {
  return allow ? { Allow: allow } : {};
}

/** Headers as serve.json lists them. */
function headerList(headers: Readonly<Record<string, string>>): { key: string; value: string }[] {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}
