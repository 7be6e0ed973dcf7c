/**
 * The route table of the API snapshot: every kind of resource, its path
 * pattern, whether it is paginated, the Allow header Weblate 4.x sends for it,
 * and the name and description an OPTIONS request answers (spec sections 1.3
 * and 6.3). Host adapters and the sidecar read this table.
 */

export type ResourceKind = (typeof ROUTES)[number]['kind'];

export interface Route {
  kind: string;
  /** Path segments after `/api/`; `:name` marks a slug or code. */
  pattern: readonly string[];
  paginated: boolean;
  /** The Allow header, in DRF's fixed method order. */
  allow: string;
  /** OPTIONS metadata: DRF's view name and Weblate's view-class docstring. */
  name: string;
  description: string;
}

const READ = 'GET, HEAD, OPTIONS';
const READ_POST = 'GET, POST, HEAD, OPTIONS';
const INSTANCE = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

const PROJECTS = 'Translation projects API.';
const COMPONENTS = 'Translation components API.';
const LANGUAGES = 'Languages API.';

export const ROUTES = [
  {
    kind: 'root',
    pattern: [],
    paginated: false,
    allow: READ,
    name: 'Api Root',
    description: 'The default basic root view for DefaultRouter',
  },

  { kind: 'projects', pattern: ['projects'], paginated: true, allow: READ_POST, name: 'Project List', description: PROJECTS },
  {
    kind: 'project',
    pattern: ['projects', ':project'],
    paginated: false,
    allow: INSTANCE,
    name: 'Project Instance',
    description: PROJECTS,
  },
  {
    kind: 'project-components',
    pattern: ['projects', ':project', 'components'],
    paginated: true,
    allow: READ_POST,
    name: 'Components',
    description: PROJECTS,
  },
  {
    kind: 'project-languages',
    pattern: ['projects', ':project', 'languages'],
    paginated: false,
    allow: READ,
    name: 'Languages',
    description: PROJECTS,
  },
  {
    kind: 'project-statistics',
    pattern: ['projects', ':project', 'statistics'],
    paginated: false,
    allow: READ,
    name: 'Statistics',
    description: PROJECTS,
  },
  {
    kind: 'project-changes',
    pattern: ['projects', ':project', 'changes'],
    paginated: true,
    allow: READ,
    name: 'Changes',
    description: PROJECTS,
  },
  {
    kind: 'project-repository',
    pattern: ['projects', ':project', 'repository'],
    paginated: false,
    allow: READ_POST,
    name: 'Repository',
    description: PROJECTS,
  },

  { kind: 'components', pattern: ['components'], paginated: true, allow: READ, name: 'Component List', description: COMPONENTS },
  {
    kind: 'component',
    pattern: ['components', ':project', ':component'],
    paginated: false,
    allow: INSTANCE,
    name: 'Component Instance',
    description: COMPONENTS,
  },
  {
    kind: 'component-translations',
    pattern: ['components', ':project', ':component', 'translations'],
    paginated: true,
    allow: READ_POST,
    name: 'Translations',
    description: COMPONENTS,
  },
  {
    kind: 'component-statistics',
    pattern: ['components', ':project', ':component', 'statistics'],
    paginated: true,
    allow: READ,
    name: 'Statistics',
    description: COMPONENTS,
  },
  {
    kind: 'component-lock',
    pattern: ['components', ':project', ':component', 'lock'],
    paginated: false,
    allow: READ_POST,
    name: 'Lock',
    description: COMPONENTS,
  },
  {
    kind: 'component-links',
    pattern: ['components', ':project', ':component', 'links'],
    paginated: true,
    allow: READ_POST,
    name: 'Links',
    description: COMPONENTS,
  },
  {
    kind: 'component-changes',
    pattern: ['components', ':project', ':component', 'changes'],
    paginated: true,
    allow: READ,
    name: 'Changes',
    description: COMPONENTS,
  },
  {
    kind: 'component-repository',
    pattern: ['components', ':project', ':component', 'repository'],
    paginated: false,
    allow: READ_POST,
    name: 'Repository',
    description: COMPONENTS,
  },

  { kind: 'translations', pattern: ['translations'], paginated: true, allow: READ, name: 'Translation List', description: COMPONENTS },
  {
    kind: 'translation',
    pattern: ['translations', ':project', ':component', ':language'],
    paginated: false,
    allow: 'GET, DELETE, HEAD, OPTIONS',
    name: 'Translation Instance',
    description: COMPONENTS,
  },
  {
    kind: 'translation-statistics',
    pattern: ['translations', ':project', ':component', ':language', 'statistics'],
    paginated: false,
    allow: READ,
    name: 'Statistics',
    description: COMPONENTS,
  },
  {
    kind: 'translation-changes',
    pattern: ['translations', ':project', ':component', ':language', 'changes'],
    paginated: true,
    allow: READ,
    name: 'Changes',
    description: COMPONENTS,
  },
  {
    kind: 'translation-units',
    pattern: ['translations', ':project', ':component', ':language', 'units'],
    paginated: true,
    allow: READ_POST,
    name: 'Units',
    description: COMPONENTS,
  },
  {
    kind: 'translation-repository',
    pattern: ['translations', ':project', ':component', ':language', 'repository'],
    paginated: false,
    allow: READ_POST,
    name: 'Repository',
    description: COMPONENTS,
  },

  { kind: 'languages', pattern: ['languages'], paginated: true, allow: READ_POST, name: 'Language List', description: LANGUAGES },
  {
    kind: 'language',
    pattern: ['languages', ':language'],
    paginated: false,
    allow: INSTANCE,
    name: 'Language Instance',
    description: LANGUAGES,
  },
  {
    kind: 'language-statistics',
    pattern: ['languages', ':language', 'statistics'],
    paginated: false,
    allow: READ,
    name: 'Statistics',
    description: LANGUAGES,
  },

  // Lists the API root links to that a snapshot holds empty.
  { kind: 'users', pattern: ['users'], paginated: true, allow: READ_POST, name: 'User List', description: 'Users API.' },
  { kind: 'groups', pattern: ['groups'], paginated: true, allow: READ_POST, name: 'Group List', description: 'Groups API.' },
  { kind: 'roles', pattern: ['roles'], paginated: true, allow: READ_POST, name: 'Role List', description: 'Roles API.' },
  { kind: 'memory', pattern: ['memory'], paginated: true, allow: READ_POST, name: 'Memory List', description: 'Memory API.' },
  {
    kind: 'component-lists',
    pattern: ['component-lists'],
    paginated: true,
    allow: READ_POST,
    name: 'Component List List',
    description: 'Component lists API.',
  },
  { kind: 'changes', pattern: ['changes'], paginated: true, allow: READ, name: 'Change List', description: 'Changes API.' },
  { kind: 'units', pattern: ['units'], paginated: true, allow: READ, name: 'Unit List', description: 'Units API.' },
  {
    kind: 'screenshots',
    pattern: ['screenshots'],
    paginated: true,
    allow: READ_POST,
    name: 'Screenshot List',
    description: 'Screenshots API.',
  },
  { kind: 'addons', pattern: ['addons'], paginated: true, allow: READ, name: 'Addon List', description: '' },
] as const satisfies readonly Route[];

/** The API root's keys, in Weblate 4.14–4.18's router registration order. */
export const ROOT_LISTS = [
  'users',
  'groups',
  'roles',
  'projects',
  'components',
  'translations',
  'memory',
  'languages',
  'component-lists',
  'changes',
  'units',
  'screenshots',
  'addons',
] as const;

/** Top-level lists the snapshot writes empty. */
export const EMPTY_ROOT_LISTS = ROOT_LISTS.filter((name) => !['projects', 'components', 'translations', 'languages'].includes(name));

const BY_KIND = new Map<string, Route>(ROUTES.map((route) => [route.kind, route]));

export function routeOf(kind: ResourceKind): Route {
  return BY_KIND.get(kind)!;
}
