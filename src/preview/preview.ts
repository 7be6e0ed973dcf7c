/**
 * The preview server: node:http in front of serve-handler with the tree's own
 * serve.json. resolvePreviewRequest() decides each answer from the URL; this
 * module checks the file exists, hands the request on with the file's path
 * (so serve-handler applies the serve.json headers to it), and writes the
 * JSON errors. A browser's preflight under the API is answered first; when
 * the tree holds the status site, its paths are answered as
 * resolveSiteRequest() and readSiteAnswer() decide. It is the only socket
 * code of the preview.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import serveHandler from 'serve-handler';
import { SERVE_CONFIG_FILE } from '../hosts/common.ts';
import type { ServeConfig } from '../hosts/serve.ts';
import { isApiPreflight, isApiRequest, resolvePreviewRequest } from '../http/targets.ts';
import { readSiteAnswer, resolveSiteRequest } from '../http/site-targets.ts';
import { treeHasPages } from '../tree/settings.ts';
import { answerUnparsableRequests } from '../http/unparsable.ts';
import { bindServer } from '../http/bind.ts';
import {
  AUTHENTICATE,
  errorText,
  flavourOfRoot,
  JSON_TYPE,
  readError,
  serverError,
  VARY,
  type ApiError,
} from '../api/answers.ts';
import type { WeblateVersion } from '../model/defaults.ts';
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
  /** The base URL the tree's links were built with. */
  treeBaseUrl: string;
  close(): Promise<void>;
}

type StartResult = { ok: true; preview: Preview } | { ok: false; message: string };

/** Starts serving a built tree; a missing tree or a busy port is a message, not a throw. */
export async function startPreview(options: PreviewOptions): Promise<StartResult> {
  const outDir = resolve(options.outDir);
  const tree = await readTree(outDir);
  if (!tree.ok) return tree;
  const server = createServer((request, response) => {
    answer(request, response, outDir, tree).catch((error: unknown) =>
      fail(response, tree.version, error, options.log),
    );
  });
  const cutLingering = answerUnparsableRequests(server, tree.version);
  const bind = options.bind ?? '127.0.0.1';
  const listening = await bindServer(server, options.port, bind);
  if (!listening.ok) return listening;
  const host = bind.includes(':') ? `[${bind}]` : bind;
  return {
    ok: true,
    preview: {
      url: `http://${host}:${listening.port}${tree.base}/api/`,
      treeBaseUrl: tree.baseUrl,
      close: () => closeServer(server, cutLingering),
    },
  };
}

/** A hint when the tree's links lead elsewhere than the preview. */
export function linkHint(preview: Preview): string | null {
  const served = new URL(preview.url);
  if (new URL(preview.treeBaseUrl).origin === served.origin) return null;
  return (
    `The tree's links point at ${preview.treeBaseUrl}/api/; build with ` +
    `--base-url ${served.origin}${new URL(preview.treeBaseUrl).pathname.replace(/\/$/, '')} to follow them here.`
  );
}

// --- internal ---

interface Tree {
  ok: true;
  config: ServeConfig;
  baseUrl: string;
  /** The path of the base URL: `` or `/l10n`. */
  base: string;
  /** The flavour the tree speaks (its API root's keys say), and so its error bodies. */
  version: WeblateVersion;
  /** Whether it was built with the status site (its settings say). */
  pages: boolean;
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
  return {
    ok: true,
    config,
    baseUrl,
    base,
    version: flavourOfRoot(Object.keys(root)),
    pages: await treeHasPages(outDir),
  };
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
  const site = tree.pages ? resolveSiteRequest(method, url, tree.base, tree.version) : null;
  if (site) {
    const answered = await readSiteAnswer(outDir, site);
    response.writeHead(answered.status, answered.headers);
    response.end(method === 'HEAD' ? undefined : answered.body);
    return;
  }
  const cors = isApiRequest(url, tree.base) ? ALLOW_ORIGIN : {};
  const decision = resolvePreviewRequest(method, url, tree.base, tree.version);
  if (decision.kind === 'error') {
    return sendError(response, tree.version, readError(decision.status, decision.detail), {
      ...cors,
      ...allowOf(decision.allow),
    });
  }
  const found = await stat(join(outDir, decision.file)).catch(() => null);
  if (!found?.isFile())
    return sendError(response, tree.version, readError(404, decision.missing), cors);
  request.url = encodeURI(`/${decision.file}`);
  await serveHandler(request, response, { ...tree.config, public: outDir });
}

function sendError(
  response: ServerResponse,
  version: WeblateVersion,
  error: ApiError,
  headers: Record<string, string> = {},
): void {
  const body = errorText(version, error);
  response.writeHead(error.status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    Vary: VARY,
    ...headers,
    ...(error.status === 401 ? AUTHENTICATE : {}),
  });
  response.end(body);
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

function fail(
  response: ServerResponse,
  version: WeblateVersion,
  error: unknown,
  log: (text: string) => void = () => undefined,
): void {
  log(
    `Internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  if (!response.headersSent) sendError(response, version, serverError(version));
  else response.destroy();
}

function closeServer(server: Server, cutLingering: () => void): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
    cutLingering();
  });
}
