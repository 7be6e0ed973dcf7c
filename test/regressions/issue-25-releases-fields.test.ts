/**
 * Issue 25, item 2: fields a release added to today's objects, each a trait keyed by that release
 * (src/model/releases.ts). The current fixture built in the release before a trait's and in its
 * own: the object lacks the field before, has it from then, and its other keys keep their order.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRAITS, type TraitName } from '../../src/model/releases.ts';
import { buildInMemory, FIXTURES } from '../helpers.ts';

const OBJECTS = {
  language: '/api/languages/cs/',
  project: '/api/projects/app/',
  component: '/api/components/app/android/',
} as const;

describe.each<[TraitName, string, keyof typeof OBJECTS, string]>([
  ['languageIds', '5.0', 'language', 'id'],
  ['projectLabels', '5.2', 'project', 'labels_url'],
  ['linkedComponentField', '5.3', 'component', 'linked_component'],
  ['keyFilter', '5.7', 'component', 'key_filter'],
  ['projectMachinerySettings', '5.8', 'project', 'machinery_settings'],
])('trait %s', (trait, before, object, field) => {
  it(`leaves ${field} out before its release and serves it from then`, async () => {
    const keysIn = async (release: string) => {
      const built = await buildInMemory(join(FIXTURES, 'current/content'), {
        weblateVersion: release,
      });
      expect(built.report.errors).toEqual([]);
      return Object.keys(built.json(OBJECTS[object]) as object);
    };
    const since = TRAITS[trait].since;
    const [earlier, later] = [await keysIn(before), await keysIn(since)];
    expect(later).toContain(field);
    expect(earlier).toEqual(later.filter((key) => key !== field));
  });
});
