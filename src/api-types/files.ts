/**
 * The files `weblate-snapshot types` writes: a declaration file per flavour
 * (`api-4.d.ts`, `api-2026.8.d.ts`) and a JSON Schema per resource kind and
 * flavour (`schemas/<flavour>/<kind>.schema.json`), each as its text.
 */
import { WEBLATE_VERSIONS } from '../model/defaults.ts';
import { renderDeclarations } from './declarations.ts';
import { resourceSchema } from './json-schema.ts';
import { apiTypes } from './objects.ts';

/** Every file, relative path (with `/`) → text, in a fixed order. */
export function typeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const version of WEBLATE_VERSIONS) {
    const types = apiTypes(version);
    files.set(`api-${version}.d.ts`, renderDeclarations(types));
    for (const resource of types.resources) {
      files.set(
        `schemas/${version}/${resource.kind}.schema.json`,
        `${JSON.stringify(resourceSchema(types, resource), null, 2)}\n`,
      );
    }
  }
  return files;
}
