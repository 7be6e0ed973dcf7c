/**
 * An incremental pull: into an earlier pull, only what changed upstream is
 * read again. Between sweeps (sweep.ts) a run reads the root and the changes
 * feed, and only the projects the feed names (their object, statistics and
 * components as below) and the language list; the rest comes from the
 * record. It sweeps instead when the feed is not served or too long, names
 * something that is no component, or a project the record does not know.
 *
 * A sweep reads the root, the language and project lists, the
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
 * component), a run reads those as a run between sweeps reads what the feed
 * names, without reading the feed, whether or not a sweep is due.
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
import {
  categoryShape,
  languageShape,
  statisticsShape,
  type ApiCategory,
  type ApiComponent,
  type ApiProject,
} from './shapes.ts';
import { sweepDue, type SweepEvery } from './sweep.ts';
import {
  finishWalk,
  quietStart,
  readRoot,
  startWalk,
  type ReadRoot,
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
  /** How often every project's statistics are read. */
  sweepEvery: SweepEvery;
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

/** What a refresh read, whether it swept (read every project's statistics), and whether the feed listed a change. */
interface Refreshed {
  instance: PulledInstance;
  swept: boolean;
  listed: boolean;
}

export async function refreshApi(fetcher: Fetcher, options: RefreshOptions): Promise<Refreshed> {
  const root = await readRoot(fetcher, options.from);
  const probe: Probe = { listed: options.record.sweep?.listed === true, asked: false };
  if (
    options.only !== undefined ||
    !sweepDue(options.sweepEvery, options.record.sweep, root.date)
  ) {
    const instance = await betweenSweeps(fetcher, options, root, probe);
    if (instance) return { instance, swept: false, listed: probe.listed };
  }
  const instance = await sweep(fetcher, options, root, probe);
  return { instance, swept: true, listed: probe.listed };
}

// --- internal ---

async function sweep(
  fetcher: Fetcher,
  options: RefreshOptions,
  root: ReadRoot,
  probe: Probe,
): Promise<PulledInstance> {
  const start = keepReleaseMarkers(await startWalk(fetcher, options, root), options.record);
  if ((options.record.flavour ?? '4') !== start.flavour) {
    const projects = start.selected.map((project) => start.walker.project(project));
    return finishWalk(start, await Promise.all(projects));
  }
  const feed = await namedByChanges(start, options);
  const context = contextOf(start, options, feed?.named ?? null);
  const projects = await Promise.all(
    start.selected.map((project) => refreshProject(context, project)),
  );
  if (feed !== null && feed.entries > 0) probe.listed = true;
  await askFeed(start, probe);
  return finishWalk(start, projects);
}

/** What the record saw that tells releases apart, for a run that reads no statistics or component. */
function keepReleaseMarkers(start: WalkStart, record: PullRecord): WalkStart {
  const counters = record.start?.statisticsCounters;
  if (counters !== undefined) start.statisticsCounters = counters;
  const keys = record.start?.componentKeys;
  if (keys !== undefined) start.componentKeys = keys;
  const formats = record.start?.statisticsFormats;
  if (start.statisticsFormats === undefined && formats !== undefined)
    start.statisticsFormats = formats;
  return start;
}

/**
 * Whether the instance's feed lists any change at all: a snapshot's feed is
 * empty however its content changes, and runs between sweeps must not trust
 * it. Asked (the feed's first page, one request) once a run until it does.
 */
interface Probe {
  listed: boolean;
  asked: boolean;
}

async function askFeed(start: WalkStart, probe: Probe): Promise<void> {
  if (probe.listed || probe.asked || start.changes === null) return;
  probe.asked = true;
  const entries = await start.walker.changes(start.changes, 1, true);
  probe.listed = (entries ?? []).length > 0;
}

/**
 * A run between sweeps: the instance as the record keeps it, and what the
 * feed names read again; null when the run must sweep instead.
 */
async function betweenSweeps(
  fetcher: Fetcher,
  options: RefreshOptions,
  root: ReadRoot,
  probe: Probe,
): Promise<PulledInstance | null> {
  const { record } = options;
  if (!record.start) return null;
  const categories = new Map(Object.entries(record.start.categories));
  const start = quietStart(fetcher, options, root, {
    flavour: record.flavour ?? '4',
    languages: record.start.languages,
    selected: record.start.projects,
    categories,
    lists: record.start.lists,
  });
  if (!start) return null;
  keepReleaseMarkers(start, record);
  const feed = options.only ? feedOf(options.only) : await trustedFeed(start, options, probe);
  if (feed === null || feed.unplaced) return null;
  const selected = new Set(start.selected.map((project) => project.slug));
  const projects = [...feed.projects];
  // A project the record does not know is new, or was hidden: only the project list shows it.
  if (!start.partial && projects.some((slug) => !selected.has(slug))) return null;
  if (projects.some((slug) => selected.has(slug))) {
    const link = root.root.languages ?? `${start.apiRoot}languages/`;
    start.languages = await start.walker.list(link, languageShape, 'a language');
  }
  const context = contextOf(start, options, feed.named);
  const pulled = await Promise.all(
    start.selected.map((project) =>
      feed.projects.has(project.slug)
        ? namedProject(context, project, categories)
        : unnamedProject(context, project),
    ),
  );
  if (pulled.some((project) => project === null)) return null;
  return finishWalk(start, pulled as PulledProject[]);
}

/** A project the feed names: its object (and categories) read again, then refreshed as in a sweep; null when it is gone. */
async function namedProject(
  context: Context,
  recorded: ApiProject,
  categories: Map<string, ApiCategory[]>,
): Promise<PulledProject | null> {
  const { walker, apiRoot } = context.start;
  const link =
    typeof recorded.url === 'string' ? recorded.url : `${apiRoot}projects/${recorded.slug}/`;
  const project = await walker.projectObject(link);
  if (project === null || project.slug !== recorded.slug) return null;
  if (context.start.flavour !== '4' && project.categories_url !== undefined)
    categories.set(
      project.slug,
      await walker.list(project.categories_url, categoryShape, 'a category'),
    );
  return refreshProject(context, project);
}

/** A project the feed does not name: kept whole, its statistics unread, unless a file of it was touched. */
async function unnamedProject(context: Context, project: ApiProject): Promise<PulledProject> {
  const known = context.options.record.projects[project.slug];
  if (known) {
    const kept = await Promise.all(
      known.components.map((entry) => keep(context, project.slug, entry)),
    );
    if (kept.every((component) => component !== null)) {
      context.start.walker.done(kept.length, true);
      return { project, statistics: null, statisticsUnread: true, components: kept };
    }
  }
  return refreshProject(context, project);
}

function contextOf(start: WalkStart, options: RefreshOptions, named: Set<string> | null): Context {
  return {
    start,
    options,
    named,
    pulledThen: new Set(Object.keys(options.record.projects)),
    pulledNow: new Set(start.selected.map((project) => project.slug)),
  };
}

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

/** What the changes feed shows since the earlier pull began. */
interface Feed {
  /** The components it names (`project/component`), and their projects. */
  named: Set<string>;
  projects: Set<string>;
  entries: number;
  /** Whether an entry names no component (a project's or the site's change, or a component gone). */
  unplaced: boolean;
}

/** The feed, when it has shown it lists changes; null when the run must sweep instead. */
async function trustedFeed(
  start: WalkStart,
  options: RefreshOptions,
  probe: Probe,
): Promise<Feed | null> {
  await askFeed(start, probe);
  return probe.listed ? namedByChanges(start, options) : null;
}

/** The places a delivery names, as the feed would name them. */
function feedOf(places: readonly ChangedPlace[]): Feed {
  const feed: Feed = {
    named: new Set(),
    projects: new Set(),
    entries: places.length,
    unplaced: false,
  };
  for (const { project, component } of places) {
    feed.projects.add(project);
    feed.named.add(project);
    if (component !== undefined) feed.named.add(`${project}/${component}`);
  }
  return feed;
}

/** The components the changes feed names since the earlier pull began (with a margin), or null without a usable feed. */
async function namedByChanges(start: WalkStart, options: RefreshOptions): Promise<Feed | null> {
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
  const feed: Feed = {
    named: new Set(),
    projects: new Set(),
    entries: entries.length,
    unplaced: false,
  };
  for (const entry of entries) {
    const component =
      /\/components\/([^/]+)\/([^/]+)\/$/.exec(entry.component ?? '') ??
      /\/translations\/([^/]+)\/([^/]+)\/[^/]+\/$/.exec(entry.translation ?? '');
    if (!component) {
      feed.unplaced = true;
      continue;
    }
    const projectSlug = decodeURIComponent(component[1]!);
    feed.projects.add(projectSlug);
    feed.named.add(projectSlug).add(`${projectSlug}/${componentSlugOf(component[2]!)}`);
  }
  return feed;
}

async function refreshProject(context: Context, project: ApiProject): Promise<PulledProject> {
  const { walker } = context.start;
  const known = context.options.record.projects[project.slug];
  if (!known) return walker.project(project);
  const statistics =
    project.statistics_url === undefined
      ? null
      : await walker.fetchOptional(project.statistics_url);
  const sumsMoved =
    statistics === null || known.statistics === null || digest(statistics) !== known.statistics;
  const recorded = new Map(known.components.map((entry) => [entry.slug, entry]));
  const sameCategories =
    known.categories === undefined ||
    known.categories === categoriesDigest(context.start, project.slug);
  if (
    !sumsMoved &&
    sameCategories &&
    digest(project) === known.object &&
    !context.named?.has(project.slug)
  ) {
    const kept = await Promise.all(
      known.components.map((entry) => keep(context, project.slug, entry)),
    );
    if (kept.every((component) => component !== null)) {
      walker.done(kept.length, true);
      return { project, statistics, components: kept };
    }
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
