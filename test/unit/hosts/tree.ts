/**
 * A built fixture seen as a host sees it: every file of the output, and for
 * each resource the URLs a client may ask it by and the Allow it must carry.
 * The expectations come from the generator (each resource's kind), not from
 * the route matcher the adapters use.
 */
import { routeOf, type ResourceKind } from '../../../src/api/routes.ts';
import { openContent } from '../../../src/resolve/open.ts';
import type { SettingsOverrides } from '../../../src/resolve/resolve.ts';
import type { Settings } from '../../../src/model/types.ts';
import { generateResources } from '../../../src/tree/groups.ts';
import { fileOfPath, basePath } from '../../../src/api/urls.ts';
import { join } from 'node:path';
import { buildInMemory, FIXTURES } from '../../helpers.ts';

export interface TreeResource {
  /** `/api/projects/~page/2/` */
  path: string;
  /** `api/projects/~page/2/index.json` */
  file: string;
  kind: ResourceKind;
  allow: string;
  /** The list a page belongs to, and its number (1 for every other resource). */
  listPath: string;
  page: number;
}

export interface FixtureTree {
  settings: Settings;
  /** The API path prefix: `` or `/mirror`. */
  base: string;
  files: ReadonlyMap<string, string>;
  resources: TreeResource[];
}

/** The API path prefix of a fixture (`` or `/mirror`), from its settings alone, with nothing built. */
export async function fixtureBase(contentDir: string): Promise<string> {
  const checked = await openContent(contentDir);
  if (!checked.ok) throw new Error(`fixture ${contentDir} does not open`);
  return basePath(checked.model.settings);
}

export async function fixtureTree(
  contentDir: string,
  overrides: SettingsOverrides = {},
): Promise<FixtureTree> {
  const checked = await openContent(contentDir, { settings: overrides });
  if (!checked.ok) throw new Error(`fixture ${contentDir} does not build`);
  const built = await buildInMemory(contentDir, overrides);
  const resources = [...generateResources(checked.model)].map(({ path, kind }) => {
    const page = /^(.*\/)~page\/(\d+)\/$/.exec(path);
    return {
      path,
      file: fileOfPath(path),
      kind,
      allow: routeOf(kind).allow,
      listPath: page ? page[1]! : path,
      page: page ? Number(page[2]) : 1,
    };
  });
  return {
    settings: checked.model.settings,
    base: basePath(checked.model.settings),
    files: built.files,
    resources,
  };
}

/**
 * The requests a client sends for a resource, as [path, query]: its path with
 * and without the trailing slash and with `?format=api`; for a page of a
 * `pagination: query` site, the list with `?page=N` instead of the page path.
 */
export function requestsFor(tree: FixtureTree, resource: TreeResource): [string, string][] {
  if (resource.page > 1 && tree.settings.pagination === 'query') {
    const list = tree.base + resource.listPath;
    return [
      [list, `page=${resource.page}`],
      [list.replace(/\/$/, ''), `page=${resource.page}`],
      [list, `format=api&page=${resource.page}`],
    ];
  }
  const path = tree.base + resource.path;
  return [
    [path, ''],
    [path.replace(/\/$/, ''), ''],
    [path, 'format=api'],
  ];
}

/** The fixture of the 2026.8 flavour: categories three deep, so components at encoded paths (docs%252Fguide). */
export const CURRENT_FIXTURE = [
  'current (2026.8, components in categories)',
  join(FIXTURES, 'current/content'),
  {},
] as const;

/**
 * A 404's body in the tree's flavour, written out: DRF's in 4.x, and
 * drf-standardized-errors' in 2026.8.
 */
export function notFoundBody(settings: Settings, detail = 'Not found.'): string {
  return settings.weblateVersion === '4'
    ? `{"detail":"${detail}"}\n`
    : `{"type":"client_error","errors":[{"code":"not_found","detail":"${detail}","attr":null}]}\n`;
}

/** The path a client sends for a file of the tree, asked for by name: a `%` in it is sent as `%25`. */
export function pathOfFile(tree: FixtureTree, file: string): string {
  return `${tree.base}/${file.replaceAll('%', '%25')}`;
}

/** A resource of the tree inside categories (its path holds the encoded `/`), to check that each host serves one. */
export function encodedResources(tree: FixtureTree): TreeResource[] {
  return tree.resources.filter((resource) => resource.path.includes('%252F'));
}
