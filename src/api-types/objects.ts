/**
 * The API of one flavour as types: the body of every resource kind it
 * serves, and each object those bodies name, with its fields in the order a
 * file holds them and the type of each. Read from the declared shapes
 * (api/shapes.ts, api/pagination.ts), the route table and the API root's
 * keys, so the published declarations and schemas say what the build writes.
 */
import { internalError } from '../errors.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import {
  hasTrait,
  laterFields,
  MINOR_RELEASES,
  shapesOf,
  statisticsShapesOf,
  typesReleaseOf,
  type FieldedObject,
  type Release,
} from '../model/releases.ts';
import { PAGE } from '../api/pagination.ts';
import {
  refusalOf,
  ROOT_LISTS,
  rootListsOf,
  routesOf,
  type ResourceKind,
  type Route,
} from '../api/routes.ts';
import {
  CATEGORY,
  COMPONENT,
  COMPONENT_WITHOUT_PROJECT,
  LANGUAGE,
  LOCK,
  NAMED_STATISTICS,
  PLURAL,
  PROJECT,
  PROJECT_LANGUAGE_4,
  PROJECT_REPOSITORY,
  REPOSITORY,
  TRANSLATION,
  TRANSLATION_STATISTICS,
  TRANSLATION_WITHOUT_COMPONENT,
  type NestedObject,
} from '../api/shapes.ts';
import { defineShape, type Shape } from '../output/serialize.ts';
import { arrayOf, NEVER, objectNamed, type ValueType } from '../output/value-types.ts';

/** What a resource's file holds: a value, or a page of a list (DRF's envelope around its items). */
export type BodyType = ValueType | { readonly type: 'page'; readonly item: ValueType };

export interface ResourceType {
  kind: ResourceKind;
  route: Route;
  body: BodyType;
}

/** A field of an object: its key and what its value is. */
export interface FieldType {
  key: string;
  type: ValueType;
  /** Absent in some releases the types cover (the 2026.8 flavour's root lists, absent before 2026.8). */
  optional?: true;
}

/** One named object of a flavour, and where the API serves it. */
export interface ObjectType {
  name: string;
  fields: readonly FieldType[];
  /** The routes whose body it is. */
  servedAt: readonly Route[];
  /** The routes whose items it is (pages of a list, or a bare array). */
  listedAt: readonly Route[];
  /** The fields of other objects that hold it: `Translation.language`. */
  nestedIn: readonly string[];
}

export interface ApiTypes {
  /** The release whose types they are: a flavour (`4`, `2026.8`) or a release that changed them (`5.2`). */
  version: Release;
  /** How the published files name the flavour or releases: `Weblate 4.x`, `Weblate 5.4 to 5.7`. */
  flavourName: string;
  /** Every resource kind the flavour has a file for, in the route table's order. */
  resources: readonly ResourceType[];
  /** Every object those resources name, in a fixed order (the root, then the nested objects, then the rest). */
  objects: readonly ObjectType[];
  /** The page envelope, its `results` items of type `item`. */
  page: readonly FieldType[];
}

/** The types of a flavour's API, or of a release's (one of typesReleases). */
export function apiTypes(version: Release): ApiTypes {
  const shapes = shapesOf(version);
  const resources = routesOf(shapes)
    .filter((route) => refusalOf(route, shapes) === undefined && !isLaterRootList(route, version))
    .map((route) => ({
      kind: route.kind as ResourceKind,
      route,
      body: bodyOf(route.kind as ResourceKind, shapes),
    }));
  return {
    version,
    flavourName: flavourNameOf(version),
    resources,
    objects: collectObjects(version, resources),
    page: fieldsOf(PAGE),
  };
}

/** A route's URL as the published files write it: `/api/translations/{project}/{component}/{language}/`. */
export function routeText(route: Route): string {
  return `/api/${route.pattern.map((part) => (part.startsWith(':') ? `{${part.slice(1)}}/` : `${part}/`)).join('')}`;
}

// --- internal ---

/** The names the published types give the objects; each names its shape in a flavour. */
type ObjectName =
  | NestedObject
  | 'ApiRoot'
  | 'Translation'
  | 'ComponentWithoutProject'
  | 'TranslationWithoutComponent'
  | 'TranslationStatistics'
  | 'Statistics'
  | 'ProjectLanguage'
  | 'Category'
  | 'ProjectRepository'
  | 'Repository'
  | 'Lock';

const OBJECTS: Record<ObjectName, (version: Release) => Shape> = {
  ApiRoot: (version) =>
    defineShape(rootListsOf(version).map((name) => [name, 'unescaped'] as const)),
  Plural: () => PLURAL.shape,
  Language: (version) => LANGUAGE[shapesOf(version)].shape,
  Project: (version) => PROJECT[shapesOf(version)].shape,
  Component: (version) => COMPONENT[shapesOf(version)].shape,
  ComponentWithoutProject: (version) => COMPONENT_WITHOUT_PROJECT[shapesOf(version)].shape,
  Translation: (version) => TRANSLATION[shapesOf(version)].shape,
  TranslationWithoutComponent: (version) => TRANSLATION_WITHOUT_COMPONENT[shapesOf(version)].shape,
  TranslationStatistics: (version) => TRANSLATION_STATISTICS[statisticsShapesOf(version)].shape,
  Statistics: (version) => NAMED_STATISTICS[statisticsShapesOf(version)].shape,
  ProjectLanguage: () => PROJECT_LANGUAGE_4.shape,
  Category: () => CATEGORY.shape,
  ProjectRepository: () => PROJECT_REPOSITORY.shape,
  Repository: () => REPOSITORY.shape,
  Lock: () => LOCK.shape,
};

const object = (name: ObjectName): ValueType => objectNamed(name);
const pageOf = (item: ValueType): BodyType => ({ type: 'page', item });
const listOf = (name: ObjectName): BodyType => pageOf(object(name));
/** A list a snapshot always holds empty (changes, units, users, announcements, …). */
const EMPTY_LIST = pageOf(NEVER);
/** A kind every flavour that has it refuses an anonymous reader: no file, no body. */
const REFUSED = null;

/**
 * The body of each resource kind (tree/groups.ts writes them); one per
 * flavour where the flavours differ. A kind a flavour has no file for (it
 * refuses it, or does not have it) is never asked for.
 */
const BODIES: Record<
  ResourceKind,
  BodyType | Readonly<Record<WeblateVersion, BodyType>> | typeof REFUSED
> = {
  root: object('ApiRoot'),
  projects: listOf('Project'),
  project: object('Project'),
  'project-components': listOf('ComponentWithoutProject'),
  // A bare array, without the envelope: 4.x's compact summaries, 2026.8's statistics objects.
  'project-languages': {
    '4': arrayOf(object('ProjectLanguage')),
    '2026.8': arrayOf(object('TranslationStatistics')),
  },
  'project-statistics': object('Statistics'),
  'project-changes': EMPTY_LIST,
  'project-repository': object('ProjectRepository'),
  components: listOf('Component'),
  component: object('Component'),
  'component-translations': listOf('TranslationWithoutComponent'),
  'component-statistics': listOf('TranslationStatistics'),
  'component-lock': object('Lock'),
  'component-links': listOf('Project'),
  'component-changes': EMPTY_LIST,
  'component-repository': object('Repository'),
  translations: listOf('Translation'),
  translation: object('Translation'),
  'translation-statistics': object('TranslationStatistics'),
  'translation-changes': EMPTY_LIST,
  'translation-units': EMPTY_LIST,
  'translation-repository': object('Repository'),
  languages: listOf('Language'),
  language: object('Language'),
  'language-statistics': object('Statistics'),
  users: EMPTY_LIST,
  groups: EMPTY_LIST,
  roles: EMPTY_LIST,
  memory: EMPTY_LIST,
  'component-lists': EMPTY_LIST,
  changes: EMPTY_LIST,
  units: EMPTY_LIST,
  screenshots: EMPTY_LIST,
  addons: EMPTY_LIST,
  'project-categories': listOf('Category'),
  'project-labels': EMPTY_LIST,
  'project-lock': object('Lock'),
  'project-announcements': EMPTY_LIST,
  'project-reports': REFUSED,
  'project-machinery-settings': REFUSED,
  'component-announcements': EMPTY_LIST,
  'component-reports': REFUSED,
  'translation-announcements': EMPTY_LIST,
  categories: listOf('Category'),
  category: object('Category'),
  'category-statistics': object('Statistics'),
  'category-announcements': EMPTY_LIST,
  'category-reports': REFUSED,
  suggestions: EMPTY_LIST,
  reports: REFUSED,
};

function bodyOf(kind: ResourceKind, version: WeblateVersion): BodyType {
  const body = BODIES[kind];
  if (body === REFUSED)
    return internalError(
      `the ${kind} route has a file in the ${version} flavour but no declared body`,
    );
  return 'type' in body ? body : body[version];
}

function fieldsOf(shape: Shape): FieldType[] {
  return shape.keys.map((key, i) => {
    const type = shape.types[i];
    if (!type) internalError(`the field "${key}" declares no type`);
    return { key, type };
  });
}

/** Each object the resources name, directly or nested, with where it is served, listed and nested. */
function collectObjects(version: Release, resources: readonly ResourceType[]): ObjectType[] {
  const found = new Map<
    string,
    { name: string; fields: FieldType[]; servedAt: Route[]; listedAt: Route[]; nestedIn: string[] }
  >();
  const visit = (
    type: ValueType,
    use: (entry: NonNullable<ReturnType<typeof found.get>>) => void,
  ): void => {
    if (type.type === 'nullable') return visit(type.of, use);
    if (type.type !== 'object') return;
    let entry = found.get(type.name);
    if (!entry) {
      const shape = OBJECTS[type.name as ObjectName] as ((version: Release) => Shape) | undefined;
      if (!shape) internalError(`a shape names the unknown object "${type.name}"`);
      const fields = withoutLaterFields(type.name, fieldsOf(shape(version)), version);
      entry = {
        name: type.name,
        fields: markOptional(type.name, fields, version),
        servedAt: [],
        listedAt: [],
        nestedIn: [],
      };
      found.set(type.name, entry);
      for (const field of entry.fields) {
        const holder = `${type.name}.${field.key}`;
        visit(field.type.type === 'array' ? field.type.items : field.type, (inner) =>
          inner.nestedIn.push(holder),
        );
      }
    }
    use(entry);
  };
  for (const { route, body } of resources) {
    if (body.type === 'page') visit(body.item, (entry) => entry.listedAt.push(route));
    else if (body.type === 'array') visit(body.items, (entry) => entry.listedAt.push(route));
    else visit(body, (entry) => entry.servedAt.push(route));
  }
  const order = Object.keys(OBJECTS);
  const rank = (name: string) => order.indexOf(name.split('.')[0]!);
  for (const entry of found.values()) entry.nestedIn.sort((a, b) => rank(a) - rank(b));
  return [...found.values()].sort((a, b) => rank(a.name) - rank(b.name));
}

/** A list of the API root that a later release added (`/api/suggestions/` before 2026.8): no file. */
function isLaterRootList(route: Route, version: Release): boolean {
  const kind = route.kind as ResourceKind;
  const lists: readonly ResourceKind[] = ROOT_LISTS[shapesOf(version)];
  return lists.includes(kind) && !rootListsOf(version).includes(kind);
}

/**
 * The API root's lists 5.x lacks (rootListsOf), marked optional in the 2026.8 flavour: its types
 * were published when they covered 5.x as well, and keep their bytes.
 */
function markOptional(name: string, fields: FieldType[], version: Release): FieldType[] {
  if (name !== 'ApiRoot' || version !== '2026.8') return fields;
  const always = new Set<string>(rootListsOf('5.0'));
  return fields.map((field) => (always.has(field.key) ? field : { ...field, optional: true }));
}

/** The object each published object is a form of, for the fields later releases added (bodies.ts). */
const FIELDED: Partial<Record<string, FieldedObject>> = {
  Language: 'language',
  Project: 'project',
  Component: 'component',
  ComponentWithoutProject: 'component',
};

/** An object's fields less those a release of today's shapes does not serve yet (laterFields). */
function withoutLaterFields(name: string, fields: FieldType[], version: Release): FieldType[] {
  const object = FIELDED[name];
  if (!object || !hasTrait(version, 'shapes5')) return fields;
  const later = laterFields(version, object);
  return fields.filter((field) => !later.has(field.key));
}

/** `Weblate 4.x`, `Weblate 2026.8`, or the releases whose types they are: `Weblate 5.4 to 5.7`. */
function flavourNameOf(version: Release): string {
  // The two flavours keep the names their files were first published with.
  if (version === '4') return 'Weblate 4.x';
  if (version === '2026.8') return 'Weblate 2026.8';
  const covered = MINOR_RELEASES.filter((minor) => typesReleaseOf(minor) === version);
  const last = covered.at(-1);
  return last && last !== version ? `Weblate ${version} to ${last}` : `Weblate ${version}`;
}
