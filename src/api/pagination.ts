/**
 * Lists as Weblate paginates them: `count`, `next`, `previous`, `results`,
 * page 1 at the list URL and later pages at their own path (or `?page=N`).
 */
import { pageSizeOf, routeOf, type ResourceKind } from './routes.ts';
import type { Settings } from '../model/types.ts';
import { defineShape, ShapedObject, type JsonValue } from '../output/serialize.ts';
import { arrayOf, LIST_ITEM, STRING_OR_NULL } from '../output/value-types.ts';
import { apiPath, pageUrl } from './urls.ts';
import type { Resource } from './resources.ts';

/** How many pages a list of `count` items has: at least one, even when empty. */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** How many items a page of a kind of list holds on a site (four times the page size for Weblate 2026.8's large lists). */
export function listPageSize(settings: Settings, kind: ResourceKind): number {
  return pageSizeOf(routeOf(kind), settings.weblateVersion, settings.pageSize);
}

/** One page of a list (1-based). */
export function listPage<T>(
  settings: Settings,
  kind: ResourceKind,
  listPath: string,
  items: readonly T[],
  render: (item: T) => JsonValue,
  page: number,
): Resource {
  const size = listPageSize(settings, kind);
  const total = pageCount(items.length, size);
  const start = (page - 1) * size;
  const results = items.slice(start, start + size).map(render);
  return {
    path: apiPath.page(listPath, page),
    kind,
    body: new ShapedObject(PAGE, [
      items.length,
      page < total ? pageUrl(settings, listPath, page + 1) : null,
      page > 1 ? pageUrl(settings, listPath, page - 1) : null,
      results,
    ]),
  };
}

/** DRF's page envelope: the number of items in the whole list, the URLs of the pages beside this one (or null), and its items. */
export const PAGE = defineShape([
  ['count', 'int'],
  ['next', 'unescaped', STRING_OR_NULL],
  ['previous', 'unescaped', STRING_OR_NULL],
  ['results', 'json', arrayOf(LIST_ITEM)],
]);

/** The items of a page as Weblate's flat renderers give them (FlatBaseRenderer: `results`), or null for a body that is no page. */
export function resultsOfPage(body: JsonValue): JsonValue | null {
  return body instanceof ShapedObject && body.shape === PAGE ? (body.values[3] as JsonValue) : null;
}
