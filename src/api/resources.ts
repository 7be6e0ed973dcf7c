/**
 * The whole API as data: a resource of the snapshot is its path, its kind
 * and its body.
 */
import type { ResourceKind } from './routes.ts';
import type { JsonValue } from '../output/serialize.ts';

export interface Resource {
  /** The API path this file answers: `/api/projects/`, `/api/projects/~page/2/`. */
  path: string;
  kind: ResourceKind;
  body: JsonValue;
}
