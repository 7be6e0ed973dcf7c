/**
 * The route table of the API snapshot: every kind of resource, its path
 * pattern, whether it is paginated, the Allow header Weblate sends for it,
 * and the name and description an OPTIONS request answers (DRF's
 * metadata). Routes of one flavour only say so; so do the routes Weblate
 * refuses an anonymous reader in a flavour (the snapshot has no file for
 * them; what can answer says 401 or 403) and the lists it pages four times as
 * long. Host adapters, the preview and the sidecar read this table through
 * routesOf().
 */
import type { WeblateVersion } from '../model/defaults.ts';
import { hasTrait, shapesOf, type Release, type TraitName } from '../model/releases.ts';

export type ResourceKind =
  (typeof ROUTES)[number]['kind'] | (typeof CURRENT_ROUTES)[number]['kind'];

export interface Route {
  kind: string;
  /** Path segments after `/api/`; `:name` marks a slug, code or id. */
  pattern: readonly string[];
  paginated: boolean;
  /** The Allow header, in DRF's fixed method order. */
  allow: string;
  /** OPTIONS metadata: DRF's view name and Weblate's view-class docstring. */
  name: string;
  description: string;
  /** What Weblate answers an anonymous GET instead, by flavour: 401 (log in first) or 403 (not allowed). */
  refused?: Partial<Record<WeblateVersion, 401 | 403>>;
  /** The trait from which the list pages with LargePagination (api/pagination.py). */
  large?: TraitName;
}

const READ = 'GET, HEAD, OPTIONS';
const READ_POST = 'GET, POST, HEAD, OPTIONS';
const INSTANCE = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

/** LargePagination.page_size = StandardPagination.page_size * 4 from Weblate 5.11, * 2 before (the docs' 100 is stale). */
const largePageFactor = (version: Release) => (hasTrait(version, 'largePagination4') ? 4 : 2);

const PROJECTS = 'Translation projects API.';
const CATEGORIES = 'Category API.';
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

  {
    kind: 'projects',
    pattern: ['projects'],
    paginated: true,
    allow: READ_POST,
    name: 'Project List',
    description: PROJECTS,
  },
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
    refused: { '2026.8': 403 },
  },

  {
    kind: 'components',
    pattern: ['components'],
    paginated: true,
    allow: READ,
    name: 'Component List',
    description: COMPONENTS,
  },
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
    large: 'largeStatistics',
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
    refused: { '2026.8': 403 },
  },

  {
    kind: 'translations',
    pattern: ['translations'],
    paginated: true,
    allow: READ,
    name: 'Translation List',
    description: COMPONENTS,
  },
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
    refused: { '2026.8': 403 },
  },

  {
    kind: 'languages',
    pattern: ['languages'],
    paginated: true,
    allow: READ_POST,
    name: 'Language List',
    description: LANGUAGES,
  },
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
  {
    kind: 'users',
    pattern: ['users'],
    paginated: true,
    allow: READ_POST,
    name: 'User List',
    description: 'Users API.',
  },
  {
    kind: 'groups',
    pattern: ['groups'],
    paginated: true,
    allow: READ_POST,
    name: 'Group List',
    description: 'Groups API.',
  },
  {
    kind: 'roles',
    pattern: ['roles'],
    paginated: true,
    allow: READ_POST,
    name: 'Role List',
    description: 'Roles API.',
  },
  // 2026.8's MemoryViewSet asks for a logged-in user (IsAuthenticated).
  {
    kind: 'memory',
    pattern: ['memory'],
    paginated: true,
    allow: READ_POST,
    name: 'Memory List',
    description: 'Memory API.',
    refused: { '2026.8': 401 },
  },
  {
    kind: 'component-lists',
    pattern: ['component-lists'],
    paginated: true,
    allow: READ_POST,
    name: 'Component List List',
    description: 'Component lists API.',
  },
  {
    kind: 'changes',
    pattern: ['changes'],
    paginated: true,
    allow: READ,
    name: 'Change List',
    description: 'Changes API.',
  },
  {
    kind: 'units',
    pattern: ['units'],
    paginated: true,
    allow: READ,
    name: 'Unit List',
    description: 'Units API.',
    large: 'shapes5',
  },
  {
    kind: 'screenshots',
    pattern: ['screenshots'],
    paginated: true,
    allow: READ_POST,
    name: 'Screenshot List',
    description: 'Screenshots API.',
  },
  {
    kind: 'addons',
    pattern: ['addons'],
    paginated: true,
    allow: READ,
    name: 'Addon List',
    description: '',
  },
] as const satisfies readonly Route[];

/** The routes only the 2026.8 flavour has (views of Weblate 2026.8.1.dev0, weblate/api/views.py), after ROUTES in its table. */
const CURRENT_ROUTES = [
  {
    kind: 'project-categories',
    pattern: ['projects', ':project', 'categories'],
    paginated: true,
    allow: READ,
    name: 'Categories',
    description: PROJECTS,
  },
  {
    kind: 'project-labels',
    pattern: ['projects', ':project', 'labels'],
    paginated: true,
    allow: READ_POST,
    name: 'Labels',
    description: PROJECTS,
  },
  {
    kind: 'project-lock',
    pattern: ['projects', ':project', 'lock'],
    paginated: false,
    allow: READ_POST,
    name: 'Lock',
    description: PROJECTS,
  },
  {
    kind: 'project-announcements',
    pattern: ['projects', ':project', 'announcements'],
    paginated: true,
    allow: READ_POST,
    name: 'Announcements',
    description: PROJECTS,
  },
  {
    kind: 'project-reports',
    pattern: ['projects', ':project', 'reports'],
    paginated: true,
    allow: READ_POST,
    name: 'Reports',
    description: PROJECTS,
    refused: { '2026.8': 401 },
  },
  {
    kind: 'project-machinery-settings',
    pattern: ['projects', ':project', 'machinery_settings'],
    paginated: false,
    allow: 'GET, POST, PUT, PATCH, HEAD, OPTIONS',
    name: 'Machinery Settings',
    description: PROJECTS,
    refused: { '2026.8': 401 },
  },
  {
    kind: 'component-announcements',
    pattern: ['components', ':project', ':component', 'announcements'],
    paginated: true,
    allow: READ_POST,
    name: 'Announcements',
    description: COMPONENTS,
  },
  {
    kind: 'component-reports',
    pattern: ['components', ':project', ':component', 'reports'],
    paginated: true,
    allow: READ_POST,
    name: 'Reports',
    description: COMPONENTS,
    refused: { '2026.8': 401 },
  },
  {
    kind: 'translation-announcements',
    pattern: ['translations', ':project', ':component', ':language', 'announcements'],
    paginated: true,
    allow: READ_POST,
    name: 'Announcements',
    description: COMPONENTS,
  },
  {
    kind: 'categories',
    pattern: ['categories'],
    paginated: true,
    allow: READ_POST,
    name: 'Category List',
    description: CATEGORIES,
  },
  {
    kind: 'category',
    pattern: ['categories', ':category'],
    paginated: false,
    allow: INSTANCE,
    name: 'Category Instance',
    description: CATEGORIES,
  },
  {
    kind: 'category-statistics',
    pattern: ['categories', ':category', 'statistics'],
    paginated: false,
    allow: READ,
    name: 'Statistics',
    description: CATEGORIES,
  },
  {
    kind: 'category-announcements',
    pattern: ['categories', ':category', 'announcements'],
    paginated: true,
    allow: READ_POST,
    name: 'Announcements',
    description: CATEGORIES,
  },
  {
    kind: 'category-reports',
    pattern: ['categories', ':category', 'reports'],
    paginated: true,
    allow: READ_POST,
    name: 'Reports',
    description: CATEGORIES,
    refused: { '2026.8': 401 },
  },
  {
    kind: 'suggestions',
    pattern: ['suggestions'],
    paginated: true,
    allow: READ,
    name: 'Suggestion List',
    description: 'Suggestions API.',
    large: 'shapes5',
  },
  {
    kind: 'reports',
    pattern: ['reports'],
    paginated: true,
    allow: READ_POST,
    name: 'Report List',
    description: '',
    refused: { '2026.8': 401 },
  },
] as const satisfies readonly Route[];

/** The routes of a flavour, in the table's order (the 4 flavour's are exactly ROUTES). */
export function routesOf(version: WeblateVersion): readonly Route[] {
  return ROUTES_BY_FLAVOUR[version];
}

/** What Weblate answers an anonymous GET of the route in a flavour instead of a file, or undefined when it serves one. */
export function refusalOf(route: Route, version: WeblateVersion): 401 | 403 | undefined {
  return route.refused?.[version];
}

/** How many items a page of the route's list holds in a release: the page size, or LargePagination's. */
export function pageSizeOf(route: Route, version: Release, pageSize: number): number {
  return route.large && hasTrait(version, route.large)
    ? largePageFactor(version) * pageSize
    : pageSize;
}

/**
 * The API root's keys, in router registration order: Weblate 4.14–4.18's,
 * and 2026.8's (api/urls.py; `tasks` has no list, so the root skips it).
 */
export const ROOT_LISTS = {
  '4': [
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
  ],
  '2026.8': [
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
    'suggestions',
    'screenshots',
    'addons',
    'categories',
    'reports',
  ],
} as const satisfies Record<WeblateVersion, readonly ResourceKind[]>;

/** The API root's keys in a release: `suggestions` and `reports` joined the router in 2026.8. */
export function rootListsOf(version: Release): readonly ResourceKind[] {
  const since2026 = hasTrait(version, 'rootSinceRouter2026');
  return ROOT_LISTS[shapesOf(version)].filter(
    (name) => since2026 || (name !== 'suggestions' && name !== 'reports'),
  );
}

/** Top-level lists the snapshot writes empty in a release (the others hold content, or are refused). */
export function emptyRootLists(version: Release): ResourceKind[] {
  const held: readonly string[] = [
    'projects',
    'components',
    'translations',
    'languages',
    'categories',
  ];
  return rootListsOf(version).filter(
    (name) => !held.includes(name) && refusalOf(routeOf(name), shapesOf(version)) === undefined,
  );
}

const ROUTES_BY_FLAVOUR: Record<WeblateVersion, readonly Route[]> = {
  '4': ROUTES,
  '2026.8': [...ROUTES, ...CURRENT_ROUTES],
};

const BY_KIND = new Map<string, Route>(
  ROUTES_BY_FLAVOUR['2026.8'].map((route) => [route.kind, route]),
);

export function routeOf(kind: ResourceKind): Route {
  return BY_KIND.get(kind)!;
}
