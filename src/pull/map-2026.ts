/**
 * What today's Weblate (the 2026.8 flavour) shows beyond 4.x, as content:
 * the settings a project has only there, the categories (one file each,
 * under the project), the inheritable settings with their `inherit_*`
 * switches, a component's category and secondary language, and a
 * component that shares another's repository named by `weblate://`. Values
 * are written where they differ from what the build derives (the default,
 * or the switch the content implies), so a build shows what was served.
 * Pure; a category or component slug that content cannot hold stops the pull.
 */
import { compareStrings } from '../errors.ts';
import {
  INHERITABLE_DEFAULTS_2026,
  PROJECT_FIELD_DEFAULTS_2026,
  INHERITABLE_SETTINGS,
  PROJECT_FIELD_DEFAULTS,
  type InheritableSetting,
} from '../model/defaults.ts';
import type { ContentFile } from './content-file.ts';
import { PullError } from './errors.ts';
import type { ApiCategory, ApiComponent, ApiProject } from './shapes.ts';

/** What mapping today's objects needs of the rest of the instance. */
export interface Flavour2026Context {
  /** A language's code by its id (a secondary language is served as an id); null when no language read has it. */
  languageCode(id: number): string | null;
  /** A category's slug by its API link; null when it was not read. */
  categorySlug(url: string): string | null;
  /** Slugs of the projects pulled (a repository link into another is left out). */
  pulledProjects: ReadonlySet<string>;
  warnings: string[];
}

/** A project's fields in 2026.8 after its name and id: 4.x's but `set_language_team`, then today's settings. */
export function map2026Project(
  project: ApiProject,
  context: Flavour2026Context,
): Record<string, unknown> {
  const served = project as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  // Today's Weblate has no set_language_team (content refuses it in 2026.8).
  const fields = Object.entries(PROJECT_FIELD_DEFAULTS).filter(
    ([key]) => key !== 'set_language_team',
  );
  writeDiffering(value, served, {
    ...Object.fromEntries(fields),
    ...PROJECT_FIELD_DEFAULTS_2026,
  });
  if (typeof served.workspace === 'string') {
    context.warnings.push(
      `${project.slug} is in workspace ${served.workspace}; a mirror has no workspaces (workspace is null).`,
    );
  }
  const own = { ...served };
  const workspace = INHERITABLE_SETTINGS.filter(
    (s) => served[`inherit_${s}`] === true && served[`effective_${s}`] !== served[s],
  );
  for (const setting of workspace) own[setting] = served[`effective_${setting}`];
  if (workspace.length > 0) {
    context.warnings.push(
      `${project.slug} inherits ${workspace.join(', ')} from a workspace, which a mirror does not have: the value in effect is written as its own.`,
    );
  }
  Object.assign(
    value,
    inheritableValues(own, project.slug, context),
    inheritSwitches(served, value, false),
  );
  return value;
}

/** A project's categories as files, each naming its parent by slug. */
export function mapCategories(
  projectSlug: string,
  categories: readonly ApiCategory[],
  context: Flavour2026Context,
): ContentFile[] {
  refuseSharedSlugs(
    projectSlug,
    categories.map((c) => c.slug),
    'categories',
  );
  return [...categories]
    .sort((a, b) => compareStrings(a.slug, b.slug))
    .map((category) => ({
      path: categoryPath(projectSlug, category.slug),
      value: mapCategory(projectSlug, category, context),
    }));
}

/**
 * The component fields only 2026.8 has, beyond the settings 4.x shares
 * (written by map-component.ts): its secondary language and the
 * `inherit_*` switches that differ from what the written settings imply.
 */
export function componentFields2026(
  projectSlug: string,
  c: ApiComponent,
  settings: Record<string, unknown>,
  context: Flavour2026Context,
): Record<string, unknown> {
  const served = c as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  const secondary = secondaryLanguage(
    served.secondary_language,
    `${projectSlug}/${c.slug}`,
    context,
  );
  if (secondary !== undefined) value.secondary_language = secondary;
  return Object.assign(value, inheritSwitches(served, { ...settings, ...value }, true));
}

/** The slug of the category a component sits in; undefined at the top of its project (or when its category was not read). */
export function componentCategory(
  projectSlug: string,
  c: ApiComponent,
  context: Flavour2026Context,
): string | undefined {
  if (typeof c.category !== 'string') return undefined;
  const slug = context.categorySlug(c.category);
  if (slug === null)
    context.warnings.push(
      `${projectSlug}/${c.slug} is in a category the pull did not read (${c.category}); it is placed at the top of its project.`,
    );
  return slug ?? undefined;
}

/** The settings a component sharing another's repository shows of that one (Component.LINKED_REPOSITORY_SETTINGS). */
export const LINKED_REPOSITORY_SETTINGS = [
  'repo',
  'branch',
  'push',
  'push_branch',
  'push_on_commit',
  'commit_pending_age',
  'auto_lock_error',
];

/**
 * `weblate://<project>/<component>` for a component that links to another's
 * repository; null when it links to none, or to one in a project not pulled
 * (then the linked repository's settings are written as its own).
 */
export function repositoryLink(
  projectSlug: string,
  c: ApiComponent,
  context: Flavour2026Context,
): string | null {
  if (typeof c.linked_component !== 'string') return null;
  const match = /\/components\/([^/]+)\/([^/]+)\/$/.exec(c.linked_component);
  if (match && context.pulledProjects.has(match[1]!))
    return `weblate://${match[1]!}/${componentSlugOf(match[2]!)}`;
  context.warnings.push(
    `${projectSlug}/${c.slug} shares the repository of ${c.linked_component}, not pulled: its settings are written as its own, and linked_component is null.`,
  );
  return null;
}

/**
 * A component's slug from its segment in an API link: `app`, or inside
 * categories `guides%252Fmanual` (their slugs and its own, joined with an
 * escaped `%2F`), whose last part it is.
 */
export function componentSlugOf(segment: string): string {
  return segment.split(/%(?:25)?2F/i).at(-1)!;
}

/** Components of one project that share a slug (in different categories) cannot be held by content: the pull stops. */
export function refuseSharedSlugs(
  projectSlug: string,
  slugs: readonly string[],
  what: 'categories' | 'components',
): void {
  const seen = new Map<string, string>();
  for (const slug of slugs) {
    const other = seen.get(slug.toLowerCase());
    if (other === undefined) {
      seen.set(slug.toLowerCase(), slug);
      continue;
    }
    const named = other === slug ? `the slug "${slug}"` : `the slugs "${other}" and "${slug}"`;
    throw new PullError(
      `${projectSlug} has two ${what} with ${named} (Weblate allows it in different categories); ` +
        `content holds one per slug in a project, so this project cannot be mirrored. Pull the others with --project. Nothing was written.`,
      { resumable: false },
    );
  }
}

// --- internal ---

/** Where a category's file goes in the content folder. */
function categoryPath(project: string, category: string): string {
  return `projects/${project}/categories/${category}.yaml`;
}

function mapCategory(
  projectSlug: string,
  category: ApiCategory,
  context: Flavour2026Context,
): Record<string, unknown> {
  const served = category as Record<string, unknown>;
  const value: Record<string, unknown> = { name: category.name, id: category.id };
  const parent = category.category === null ? null : context.categorySlug(category.category);
  if (parent !== null) value.parent = parent;
  else if (category.category !== null) {
    context.warnings.push(
      `${projectSlug}/${category.slug} is inside a category the pull did not read; it is placed at the top.`,
    );
  }
  if (category.check_flags) value.check_flags = category.check_flags;
  Object.assign(value, inheritableValues(served, `${projectSlug}/${category.slug}`, context));
  return Object.assign(value, inheritSwitches(served, value, true));
}

/** The own values of the inheritable settings that differ from today's defaults (a secondary language by its code). */
function inheritableValues(
  served: Record<string, unknown>,
  where: string,
  context: Flavour2026Context,
): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const setting of INHERITABLE_SETTINGS) {
    if (setting === 'secondary_language') {
      const code = secondaryLanguage(served[setting], where, context);
      if (code !== undefined) value[setting] = code;
    } else if (
      typeof served[setting] === 'string' &&
      served[setting] !== INHERITABLE_DEFAULTS_2026[setting]
    ) {
      value[setting] = served[setting];
    }
  }
  return value;
}

/**
 * `inherit_<setting>` where the served switch differs from what the build
 * takes when the content leaves it out: on for a category or component
 * whose file leaves the setting out, off otherwise (a project has no parent).
 */
function inheritSwitches(
  served: Record<string, unknown>,
  written: Record<string, unknown>,
  hasParent: boolean,
): Record<string, boolean> {
  const switches: Record<string, boolean> = {};
  for (const setting of INHERITABLE_SETTINGS) {
    const switched = served[`inherit_${setting}`];
    const implied = hasParent && !(setting in written);
    if (typeof switched === 'boolean' && switched !== implied)
      switches[`inherit_${setting satisfies InheritableSetting}`] = switched;
  }
  return switches;
}

/** The code of a secondary language served as an id; undefined for none, or one no language read has (with a warning). */
function secondaryLanguage(
  id: unknown,
  where: string,
  context: Flavour2026Context,
): string | undefined {
  if (typeof id !== 'number') return undefined;
  const code = context.languageCode(id);
  if (code === null)
    context.warnings.push(
      `${where} has a secondary language (id ${id}) that no language read has; it is left out.`,
    );
  return code ?? undefined;
}

/** Writes each field of `defaults` whose served value differs from it. */
function writeDiffering(
  value: Record<string, unknown>,
  served: Record<string, unknown>,
  defaults: Readonly<Record<string, unknown>>,
): void {
  for (const [key, fallback] of Object.entries(defaults)) {
    if (served[key] !== undefined && served[key] !== fallback) value[key] = served[key];
  }
}
