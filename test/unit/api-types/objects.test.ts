/** The API of each flavour as types, read from the declared shapes: which objects, which fields, and where each is served. */
import { describe, expect, it } from 'vitest';
import { apiTypes, routeText } from '../../../src/api-types/objects.ts';
import { routeOf } from '../../../src/api/routes.ts';
import { TRANSLATION } from '../../../src/api/shapes.ts';

const names = (version: '4' | '2026.8') => apiTypes(version).objects.map((object) => object.name);
const objectOf = (version: '4' | '2026.8', name: string) =>
  apiTypes(version).objects.find((object) => object.name === name)!;

describe('apiTypes', () => {
  it('gives each flavour the objects it serves, and no other', () => {
    expect(names('4')).toEqual(
      expect.arrayContaining(['ProjectLanguage', 'ProjectRepository', 'Repository']),
    );
    expect(names('4')).not.toContain('Category');
    expect(names('2026.8')).toEqual(expect.arrayContaining(['Category', 'TranslationStatistics']));
    for (const gone of ['ProjectLanguage', 'ProjectRepository', 'Repository'])
      expect(names('2026.8')).not.toContain(gone);
  });

  it("types every field of an object, in the order of the flavour's layout", () => {
    for (const version of ['4', '2026.8'] as const) {
      expect(objectOf(version, 'Translation').fields.map((field) => field.key)).toEqual(
        TRANSLATION[version].shape.keys,
      );
    }
    const fields = Object.fromEntries(
      objectOf('2026.8', 'Component').fields.map((field) => [field.key, field.type]),
    );
    expect(fields.id).toEqual({ type: 'integer' });
    expect(fields.source_language).toEqual({ type: 'object', name: 'Language' });
    expect(fields.category).toEqual({ type: 'nullable', of: { type: 'string' } });
    expect(fields.secondary_language).toEqual({ type: 'nullable', of: { type: 'integer' } });
    expect(fields.enforced_checks).toEqual({ type: 'array', items: { type: 'string' } });
    expect(fields.vcs_params).toEqual({ type: 'map' });
  });

  it('says where each object is served, listed and held', () => {
    const language = objectOf('4', 'Language');
    expect(language.servedAt.map((route) => route.kind)).toEqual(['language']);
    expect(language.listedAt.map((route) => route.kind)).toEqual(['languages']);
    expect(language.nestedIn).toEqual([
      'Component.source_language',
      'ComponentWithoutProject.source_language',
      'Translation.language',
      'TranslationWithoutComponent.language',
    ]);
    expect(objectOf('2026.8', 'TranslationStatistics').listedAt.map((route) => route.kind)).toEqual(
      ['project-languages', 'component-statistics'],
    );
  });

  it('has a body for every route a flavour has a file for, and none for a route it refuses', () => {
    const kinds = (version: '4' | '2026.8') =>
      apiTypes(version).resources.map((resource) => resource.kind);
    expect(kinds('4')).toContain('memory');
    expect(kinds('2026.8')).not.toContain('memory');
    expect(kinds('2026.8')).not.toContain('project-repository');
    expect(
      apiTypes('2026.8').resources.find((resource) => resource.kind === 'users')?.body,
    ).toEqual({
      type: 'page',
      item: { type: 'never' },
    });
  });
});

describe('routeText', () => {
  it.each([
    ['root', '/api/'],
    ['projects', '/api/projects/'],
    ['translation', '/api/translations/{project}/{component}/{language}/'],
    ['category-statistics', '/api/categories/{category}/statistics/'],
  ] as const)('writes the %s route as %s', (kind, text) => {
    expect(routeText(routeOf(kind))).toBe(text);
  });
});
