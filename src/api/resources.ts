/**
 * The whole API as data: every resource of the snapshot with its path, kind
 * and body, and the count of files a build writes.
 */
import type { ResourceKind } from './routes.ts';
import { EMPTY_ROOT_LISTS } from './routes.ts';
import type { Model } from '../model/types.ts';
import type { JsonValue } from '../output/serialize.ts';
import { pageCount } from './pagination.ts';

export interface Resource {
  /** The API path this file answers: `/api/projects/`, `/api/projects/~page/2/`. */
  path: string;
  kind: ResourceKind;
  body: JsonValue;
}

/** How many API files a build writes, for progress reports. */
export function countApiFiles(model: Model): number {
  const n = (count: number) => pageCount(count, model.site.pageSize);
  let total = 1 + EMPTY_ROOT_LISTS.length;
  total += n(model.languages.length) + 2 * model.languages.length;
  total += n(model.projects.length);
  for (const project of model.projects) total += 5 + n(project.components.length);
  total += n(model.components.length);
  for (const component of model.components) {
    total += 4 + 2 * n(component.translations.length) + n(component.links.length);
  }
  total += 5 * model.translations.length + n(model.translations.length);
  return total;
}
