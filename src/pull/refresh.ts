/**
 * An incremental pull: into an earlier pull, only what changed upstream is
 * read again. Every run reads the root, the language and project lists, the
 * changes feed since the earlier pull (where the instance serves one), and
 * each project's statistics (one request a project). A project's component
 * list is read again when its statistics or its object moved, the feed names
 * one of its components, or one of its component files was touched; then a
 * component is read again when it is new, its object differs, the feed names
 * it, its file was touched, or the projects it is shared into moved in or out
 * of the pull, and, when the project's statistics moved, when its own
 * statistics list differs. Everything else is kept from the record
 * (record.ts), its file untouched.
 *
 * Today's Weblate gives the same signals; its categories are read on every
 * run, and a project whose categories changed has its component list read
 * again (a component's link names its categories). A pull into a pull of
 * the other flavour (the instance was upgraded) reads everything.
 *
 * Told what changed (`only`: a webhook's delivery names its project and
 * component), the feed is not read and the projects not named are kept whole
 * without a request, unless their object or categories moved.
 */
import { join } from 'node:path';
import { componentPath } from './map-component.ts';
import { componentSlugOf } from './map-2026.ts';
import {
  categoriesDigest,
  digest,
  fileStamp,
  type ComponentRecord,
  type PullRecord,
} from './record.ts';
import { statisticsShape, type ApiComponent, type ApiProject } from './shapes.ts';
import {
  finishWalk,
  startWalk,
  type Fetcher,
  type KeptComponent,
  type PulledComponent,
  type PulledInstance,
  type PulledProject,
  type WalkProgress,
  type WalkStart,
} from './walk.ts';

interface RefreshOptions {
  /** The API root the user gave, ending with `/`. */
  from: string;
  /** Slugs of the projects to pull; empty for all. */
  projects: readonly string[];
  /** The content folder the earlier pull wrote, and its record. */
  outDir: string;
  record: PullRecord;
  onProgress?: (progress: WalkProgress) => void;
  onNotice?: (text: string) => void;
  /** What is known to have changed; everything else is kept unless the project list says otherwise. */
  only?: readonly ChangedPlace[] | undefined;
}

/** A project, or one of its components, named as changed (by a webhook's delivery). */
export interface ChangedPlace {
  project: string;
  component?: string | undefined;
}

export async function refreshApi(
  fetcher: Fetcher,
  options: RefreshOptions,
): Promise<PulledInstance> {
  const start = await startWalk(fetcher, options);
  if ((options.record.flavour ?? '4') !== start.flavour) {
    return finishWalk(
      start,
      await Promise.all(start.selected.map((project) => start.walker.project(project))),
    );
  }
  const named = options.only ? namedPlaces(options.only) : await namedByChanges(start, options);
  const context: Context = {
    start,
    options,
    named,
    pulledThen: new Set(Object.keys(options.record.projects)),
    pulledNow: new Set(start.selected.map((project) => project.slug)),
  };
  const projects = await Promise.all(
    start.selected.map((project) => refreshProject(context, project)),
  );
  return finishWalk(start, projects);
}

// --- internal ---

/** Pages of the changes feed read at most; a longer feed is not used (the statistics still decide). */
const MAX_FEED_PAGES = 20;
/** The feed is read from this long before the earlier pull began: clocks differ, and changes are stamped as they are saved. */
const FEED_MARGIN_MS = 10 * 60_000;

interface Context {
  start: WalkStart;
  options: RefreshOptions;
  /** Components (`project/component`) the changes feed names, and their projects; null when it was not read. */
  named: Set<string> | null;
  pulledThen: ReadonlySet<string>;
  pulledNow: ReadonlySet<string>;
}

/** The projects and components (`project/component`) a delivery names, as the feed would name them. */
function namedPlaces(places: readonly ChangedPlace[]): Set<string> {
  const named = new Set<string>();
  for (const place of places) {
    named.add(place.project);
    if (place.component !== undefined) named.add(`${place.project}/${place.component}`);
  }
  return named;
}

/** The components the changes feed names since the earlier pull began (with a margin), or null without a usable feed. */
async function namedByChanges(
  start: WalkStart,
  options: RefreshOptions,
): Promise<Set<string> | null> {
  const since = options.record.date === null ? Number.NaN : Date.parse(options.record.date);
  if (start.changes === null || Number.isNaN(since)) return null;
  const after = new Date(since - FEED_MARGIN_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const link = `${start.changes}${start.changes.includes('?') ? '&' : '?'}timestamp_after=${encodeURIComponent(after)}`;
  const entries = await start.walker.changes(link, MAX_FEED_PAGES);
  if (entries === null) {
    options.onNotice?.(
      `The changes feed (${link}) was not used: it answered no list, or more than ${MAX_FEED_PAGES} pages. Statistics decide alone.`,
    );
    return null;
  }
  const named = new Set<string>();
  for (const entry of entries) {
    const component =
      /\/components\/([^/]+)\/([^/]+)\/$/.exec(entry.component ?? '') ??
      /\/translations\/([^/]+)\/([^/]+)\/[^/]+\/$/.exec(entry.translation ?? '');
    if (!component) continue;
    const projectSlug = decodeURIComponent(component[1]!);
    named.add(projectSlug).add(`${projectSlug}/${componentSlugOf(component[2]!)}`);
  }
  return named;
}

async function refreshProject(context: Context, project: ApiProject): Promise<PulledProject> {
  const { walker } = context.start;
  const known = context.options.record.projects[project.slug];
  if (!known) return walker.project(project);
  const sameCategories =
    known.categories === undefined ||
    known.categories === categoriesDigest(context.start, project.slug);
  const untold = context.options.only !== undefined && !context.named?.has(project.slug);
  if (untold && sameCategories && digest(project) === known.object) {
    const kept = await keepAll(context, project.slug, known.components);
    if (kept)
      return { project, statistics: null, keptStatistics: known.statistics, components: kept };
  }
  const statistics =
    project.statistics_url === undefined
      ? null
      : await walker.fetchOptional(project.statistics_url);
  const sumsMoved =
    statistics === null || known.statistics === null || digest(statistics) !== known.statistics;
  const recorded = new Map(known.components.map((entry) => [entry.slug, entry]));
  if (
    !sumsMoved &&
    sameCategories &&
    digest(project) === known.object &&
    !context.named?.has(project.slug)
  ) {
    const kept = await keepAll(context, project.slug, known.components);
    if (kept) return { project, statistics, components: kept };
  }
  const components = await walker.listComponents(project);
  const refreshed = await Promise.all(
    components.map((c) => refreshComponent(context, project, c, recorded.get(c.slug), sumsMoved)),
  );
  return { project, statistics, components: refreshed };
}

async function refreshComponent(
  context: Context,
  project: ApiProject,
  c: ApiComponent,
  known: ComponentRecord | undefined,
  sumsMoved: boolean,
): Promise<PulledComponent | KeptComponent> {
  const { walker } = context.start;
  const same =
    known !== undefined &&
    digest(c) === known.object &&
    !context.named?.has(`${project.slug}/${c.slug}`);
  const kept = same ? await keep(context, project.slug, known) : null;
  if (!kept) return walker.component(c);
  if (sumsMoved) {
    const read = await walker.readList(c.statistics_url, statisticsShape, 'translation statistics');
    if (digest(read.items) !== known!.statistics) return walker.component(c, read);
  }
  walker.done();
  return kept;
}

/** Every component of a project as the record keeps it, or null when one must be read again. */
async function keepAll(
  context: Context,
  projectSlug: string,
  components: readonly ComponentRecord[],
): Promise<KeptComponent[] | null> {
  const kept = await Promise.all(components.map((entry) => keep(context, projectSlug, entry)));
  if (!kept.every((component) => component !== null)) return null;
  context.start.walker.done(kept.length, true);
  return kept;
}

/** The component as the record keeps it, or null when its file or the projects it is shared into say it must be read again. */
async function keep(
  context: Context,
  projectSlug: string,
  known: ComponentRecord,
): Promise<KeptComponent | null> {
  // Links into projects not pulled are left out of the file: which those are must not have changed.
  if (known.links.some((slug) => context.pulledThen.has(slug) !== context.pulledNow.has(slug)))
    return null;
  const file = await fileStamp(
    join(context.options.outDir, componentPath(projectSlug, known.slug)),
  );
  if (!file || !known.file || file.size !== known.file.size || file.mtimeMs !== known.file.mtimeMs)
    return null;
  const languages = known.languages.map((code) => context.options.record.languages[code]);
  if (languages.some((language) => language === undefined)) return null;
  const { translations, lists, warnings, hidden } = known;
  return {
    kept: true,
    slug: known.slug,
    languages: languages.map((language) => language!),
    translations,
    lists,
    warnings,
    hidden,
  };
}
