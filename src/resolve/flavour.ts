/**
 * Settings of one flavour used in the other: a content error at the key, as
 * the settings' flavour decides (site.yaml's weblate_version, or
 * --weblate-version). Which settings belong to one flavour only is
 * model/defaults.ts FLAVOUR_ONLY_FIELDS.
 */
import { FLAVOUR_ONLY_FIELDS, WEBLATE_VERSIONS, type WeblateVersion } from '../model/defaults.ts';
import type { Problem } from '../content/problems.ts';

/** Reports each of `keys` (those a file gives) that only another flavour than `version` has. */
export function checkFlavourFields(
  kind: keyof typeof FLAVOUR_ONLY_FIELDS,
  keys: Iterable<string>,
  version: WeblateVersion,
  file: string,
  problems: Problem[],
): void {
  for (const key of keys) {
    const owner = WEBLATE_VERSIONS.find(
      (other) => other !== version && FLAVOUR_ONLY_FIELDS[kind][other].includes(key),
    );
    if (owner)
      problems.push({
        file,
        path: [key],
        atKey: true,
        message: flavourMessage(version, `a field of ${RELEASES_OF[owner]} only`),
      });
  }
}

/** The message of a flavour mismatch: what the settings' releases expect, and what was found. */
export function flavourMessage(version: WeblateVersion, found: string): string {
  return `expected what weblate_version ${RELEASES_OF[version]} has (got ${found}; the releases differ as docs/flavours.md says)`;
}

/** The releases served in each shape, as messages name them. */
const RELEASES_OF: Readonly<Record<WeblateVersion, string>> = {
  '4': '4.x',
  '2026.8': '5.0 and later',
};
