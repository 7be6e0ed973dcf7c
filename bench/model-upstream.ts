/**
 * An upstream instance served from memory, for counting what a pull asks of
 * an instance whose tree would not fit the disk (a million translations make
 * some ten million files): the content is opened once, and each GET is
 * answered by rendering the one file group that holds the file asked for,
 * with the build's own renderers, so its bytes are those of the built tree.
 * Requests are routed as the sidecar routes its reads (http/targets.ts); it
 * answers no writes and no status site.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorText, readError } from '../src/api/answers.ts';
import { listPageSize, pageCount } from '../src/api/pagination.ts';
import { basePath, componentSegment, folderOfPath } from '../src/api/urls.ts';
import { resolvePreviewRequest, typeOfFile } from '../src/http/targets.ts';
import { shapesOf } from '../src/model/releases.ts';
import type { Component, Model } from '../src/model/types.ts';
import { encodeFileText } from '../src/output/serialize.ts';
import { createFingerprintCache } from '../src/tree/fingerprints.ts';
import {
  categoryGroup,
  componentGroups,
  createContext,
  fileGroups,
  instanceListPages,
  languageGroup,
  languageListGroups,
  oneProjectGroups,
  toFileGroup,
  translationGroup,
  type ApiGroup,
  type FileGroup,
} from '../src/tree/groups.ts';

interface UpstreamAnswer {
  status: number;
  body: Buffer;
  contentType: string;
}

type ModelAnswerer = (method: string, url: string) => UpstreamAnswer;

/**
 * Answers a request-target (path and query, as sent) from the model, as the read-only sidecar
 * over its tree would.
 */
export function createModelAnswerer(model: Model): ModelAnswerer {
  const { settings } = model;
  const version = shapesOf(settings.weblateVersion);
  const base = basePath(settings);
  const find = groupFinder(model);
  return (method, url) => {
    const chosen = resolvePreviewRequest(method, url, base, version);
    if (chosen.kind === 'error') return error(chosen.status, chosen.detail);
    const group = find(chosen.file);
    const file = group?.render().find((candidate) => candidate.path === chosen.file);
    if (!file) return error(404, chosen.missing);
    const body = encodeFileText(file.data);
    return { status: 200, body, contentType: typeOfFile(chosen.file) };
  };

  function error(status: 401 | 403 | 404 | 405, detail: string): UpstreamAnswer {
    const text = errorText(settings.weblateVersion, readError(status, detail));
    return { status, body: Buffer.from(text), contentType: 'application/json' };
  }
}

interface ModelUpstream {
  /** The API root as served: `http://127.0.0.1:PORT/api/` (below the base URL's path). */
  url: string;
  close(): Promise<void>;
}

/** Serves the model on 127.0.0.1 (a free port unless given), GET and HEAD. */
export async function serveModel(model: Model, port = 0): Promise<ModelUpstream> {
  const answer = createModelAnswerer(model);
  const server: Server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    let answered: UpstreamAnswer;
    try {
      answered = answer(method, request.url ?? '/');
    } catch (failure) {
      process.stderr.write(`Internal error: ${(failure as Error).stack}\n`);
      response.writeHead(500, { 'Content-Type': 'application/json' }).end('{}');
      return;
    }
    response.writeHead(answered.status, {
      'Content-Type': answered.contentType,
      'Content-Length': answered.body.length,
    });
    response.end(method === 'HEAD' ? undefined : answered.body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${basePath(model.settings)}/api/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- internal ---

/**
 * The group that holds a file of the tree (`api/projects/demo/statistics/index.json`): the
 * groups of the object its path names, made from one context kept for every request (its
 * bodies and fingerprints are computed once), and of those the one owning the deepest folder
 * above the file. Null when the path names no object of the model.
 */
function groupFinder(model: Model): (file: string) => FileGroup | null {
  const cache = createFingerprintCache();
  const context = createContext(model, cache);
  const release = model.settings.weblateVersion;
  const projects = new Map(model.projects.map((p) => [p.slug, p]));
  const components = new Map(model.components.map((c) => [componentKey(c), c]));
  const languages = new Map(model.languages.map((l) => [l.code, l]));
  const categories = new Map(model.categories.map((c) => [String(c.id), c]));

  const candidates = (file: string): Iterable<ApiGroup> | FileGroup | null => {
    // The file's segments are decoded once (fileOfPath): a component in categories is encoded again.
    const [, list, ...rest] = file.split('/').slice(0, -1);
    const object = rest[0] === '~page' ? [] : rest;
    if (object.length === 0) {
      if (list === 'translations' || list === 'components') return instanceListPages(context, list);
      if (list === 'languages') return languageListGroups(context);
      return listOrRoot(file, list);
    }
    const [first, second, third] = object.map((s) => s.replaceAll('%', '%25'));
    if (list === 'translations' || list === 'components') {
      const component = components.get(`${first}/${second}`);
      if (!component) return null;
      if (list === 'components') return componentGroups(context, component);
      const translation = component.translations.find((t) => t.language.code === third);
      return translation ? [translationGroup(context, translation)] : null;
    }
    if (list === 'projects') {
      const project = projects.get(first!);
      return project ? oneProjectGroups(context, project) : null;
    }
    if (list === 'languages') {
      const language = languages.get(first!);
      return language ? [languageGroup(context, language)] : null;
    }
    if (list === 'categories') {
      const category = categories.get(first!);
      return category ? [categoryGroup(context, category)] : null;
    }
    return listOrRoot(file, list);
  };

  /**
   * A page of the project or category list, found among every group (they come early), or the
   * root's group for an empty list it holds (`/api/users/`).
   */
  const listOrRoot = (file: string, list: string | undefined): FileGroup | null => {
    const items =
      list === 'projects' ? model.projects : list === 'categories' ? model.categories : null;
    const page = Number(/~page\/(\d+)\/index\.json$/.exec(file)?.[1] ?? '1');
    if (items && page > pageCount(items.length, listPageSize(model.settings, list as 'projects')))
      return null;
    const key = items ? `/${file.slice(0, -'index.json'.length)}` : '/api/';
    for (const group of fileGroups(model, { cache })) if (group.key === key) return group;
    return null;
  };

  return (file) => {
    const found = candidates(file);
    if (found === null || 'render' in found) return found;
    const own = file.slice(0, file.lastIndexOf('/') + 1);
    let deepest: ApiGroup | null = null;
    let depth = 0;
    for (const group of found) {
      const folder = folderOfPath(group.key);
      if (folder === own) return toFileGroup(group, release);
      if (own.startsWith(folder) && folder.length > depth)
        [deepest, depth] = [group, folder.length];
    }
    return deepest && toFileGroup(deepest, release);
  };
}

/** A component's key in the index: its project's slug and its segment, as API paths write them. */
function componentKey(component: Component): string {
  return `${component.project.slug}/${componentSegment(component)}`;
}
