/**
 * Walks a Weblate API: the root, the projects (each one's statistics, then
 * its components), each component's translations, statistics, lock and
 * links, and the languages; in today's Weblate also the categories, and a
 * component's lock comes with its object. Which Weblate it is (flavour.ts)
 * is told from the root, the first language and project, and checked again
 * against the first statistics and translation read. Lists are followed
 * through their `next` links (`?page=N` or page paths). Links the server
 * writes with its own host are fetched under the URL the user gave, and
 * nothing outside it is ever requested (the token stays there). An
 * incremental pull (refresh.ts) takes the same first steps (startWalk) and
 * reads only what changed.
 */
import { createSlots, type JsonAnswer } from './http.ts';
import { PullError } from './errors.ts';
import { detectFlavour, statisticsCountersOf, type FlavourEvidence } from './flavour.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import {
  categoryShape,
  changeShape,
  componentShape,
  languageShape,
  lockShape,
  pageShape,
  parseShape,
  projectShape,
  rootShape,
  statisticsShape,
  translationShape,
  type ApiCategory,
  type ApiComponent,
  type ApiLanguage,
  type ApiProject,
  type ApiStatistics,
  type ApiTranslation,
} from './shapes.ts';
import type { z } from 'zod';

/**
 * Gets one URL (from the network or the resume file) and reads its answer
 * with `read`. An answer `read` refuses (throws) is not kept for a resumed
 * pull: the next run asks the server again.
 */
export type Fetcher = <T>(url: string, read: (answer: JsonAnswer) => T) => Promise<T>;

interface WalkOptions {
  /** The API root the user gave, ending with `/`. */
  from: string;
  /** Slugs of the projects to pull; empty for all. */
  projects: readonly string[];
  onProgress?: (progress: WalkProgress) => void;
}

export interface WalkProgress {
  componentsDone: number;
  componentsKnown: number;
}

/** What a list looked like: enough to tell the page size and the pagination style. */
export interface ListObservation {
  url: string;
  count: number;
  firstPageLength: number;
  next: string | null;
}

export interface PulledComponent {
  component: ApiComponent;
  translations: ApiTranslation[];
  /** Statistics by language code. */
  statistics: Map<string, ApiStatistics>;
  locked: boolean;
  links: ApiProject[];
  /** Its own lists as read (translations, statistics, links). */
  lists: ListObservation[];
}

/**
 * A component an incremental pull keeps from the earlier pull (refresh.ts):
 * its file stays as it was written, and what the rest of the content needs
 * of it comes from the pull's record (record.ts).
 */
export interface KeptComponent {
  kept: true;
  slug: string;
  /** The languages it uses (its source language and its translations'). */
  languages: ApiLanguage[];
  translations: number;
  /** Its lists as the earlier pull read them (those cut into pages, and the longest). */
  lists: ListObservation[];
  /** What mapping it warned of (add-ons, links left out). */
  warnings: string[];
  /** Settings it showed as null (hidden from the caller). */
  hidden: string[];
}

export interface PulledProject {
  project: ApiProject;
  /** Its statistics as served before its components were read; null when it serves none. */
  statistics: unknown;
  /** Between sweeps (refresh.ts): its statistics were not read, and the record keeps their digest. */
  statisticsUnread?: true;
  components: (PulledComponent | KeptComponent)[];
}

export interface PulledInstance {
  /** The API root as the server writes it in its own links: `https://weblate.example.org/api/`. */
  apiRoot: string;
  lists: ListObservation[];
  /** The lists of the instance itself (languages, projects, categories, a project's components). */
  instanceLists?: ListObservation[];
  languages: ApiLanguage[];
  projects: PulledProject[];
  /** Whether only some projects were pulled (`--project`). */
  partial: boolean;
  /** The server's Date header when the walk began (its clock), if it sent one. */
  date: string | null;
  warnings: string[];
  /** Which Weblate's API it serves ("4" when absent). */
  flavour?: WeblateVersion;
  /** Each pulled project's categories, by project slug (today's Weblate). */
  categories?: ReadonlyMap<string, ApiCategory[]>;
  /** The API root's keys as served, which tell releases apart (absent: not read). */
  rootKeys?: readonly string[];
  /** How many counters its statistics have (21 before Weblate 5.2); absent when none was seen. */
  statisticsCounters?: 21 | 33;
  /** Whether its statistics answer `?format=csv`; absent when not asked. */
  statisticsFormats?: boolean;
  /** The keys a project and a component were served with, when one was read (they tell releases apart). */
  fieldsSeen?: { project?: readonly string[]; component?: readonly string[] };
}

/**
 * Takes a component as soon as its reads are complete; what it gives back is
 * what the walk keeps of it (a full pull writes it and keeps only a summary).
 */
export type SettleComponent = (
  project: ApiProject,
  pulled: PulledComponent,
) => Promise<PulledComponent | KeptComponent>;

/** `settle`: made once the walk's start is read, it takes each component read. */
export async function walkApi(
  fetcher: Fetcher,
  options: WalkOptions,
  settle?: (start: WalkStart) => SettleComponent,
): Promise<PulledInstance> {
  const start = await startWalk(fetcher, options);
  const settled = settle?.(start);
  const projects = await Promise.all(
    start.selected.map((project) => start.walker.project(project, settled)),
  );
  return finishWalk(start, projects);
}

/** What every walk reads first: the root, the languages and the projects (those selected). */
export interface WalkStart {
  /** The API root the user gave. */
  from: string;
  apiRoot: string;
  /** The changes feed, when the root names one. */
  changes: string | null;
  date: string | null;
  languages: ApiLanguage[];
  selected: ApiProject[];
  partial: boolean;
  walker: Walker;
  flavour: WeblateVersion;
  /** The selected projects' categories, by project slug (empty lists in 4.x). */
  categories: ReadonlyMap<string, ApiCategory[]>;
  /** The root as served, for placing the flavour again at the end. */
  root: Readonly<Record<string, unknown>>;
  /** The statistics layout an earlier pull saw, for a pull that reads no statistics. */
  statisticsCounters?: 21 | 33;
  /** A component's keys as an earlier pull saw them, for a pull that reads no component. */
  componentKeys?: readonly string[];
  /** Whether statistics answer `?format=csv` (absent: not asked; only a 2026.8 root is asked). */
  statisticsFormats?: boolean;
}

/** The API root as read, with the server's date. */
export type ReadRoot = Awaited<ReturnType<typeof readRoot>>;

/** `read`: the root when it was read already (a pull between sweeps that found it must sweep). */
export async function startWalk(
  fetcher: Fetcher,
  options: WalkOptions,
  read?: ReadRoot,
): Promise<WalkStart> {
  const { from } = options;
  const { root, date } = read ?? (await readRoot(fetcher, from));
  const apiRoot = root.projects.slice(0, -'projects/'.length);
  const resolve = linkResolver(apiRoot, from);
  const walker = createWalker(fetcher, resolve, options.onProgress);
  const [languages, allProjects] = await Promise.all([
    walker.list(root.languages ?? `${apiRoot}languages/`, languageShape, 'a language'),
    walker.list(root.projects, projectShape, 'a project'),
  ]);
  const selected = selectProjects(allProjects, options.projects, from);
  const flavour = placeFlavour(from, walker.evidence(root));
  const partial = options.projects.length > 0;
  const categories =
    flavour === '4'
      ? new Map<string, ApiCategory[]>()
      : await readCategories(walker, root.categories, selected, partial);
  const statisticsFormats = await askStatisticsFormats(fetcher, resolve, root, allProjects[0]);
  return {
    from,
    apiRoot,
    changes: root.changes ?? null,
    date,
    languages,
    selected,
    partial,
    walker,
    flavour,
    categories,
    root,
    ...(statisticsFormats === undefined ? {} : { statisticsFormats }),
  };
}

/**
 * Whether the instance answers a project's statistics as CSV, asked only of a root with
 * `suggestions` (2026.8 on): every such Weblate does, and a snapshot built as "2026.8" does not.
 */
async function askStatisticsFormats(
  fetcher: Fetcher,
  resolve: (link: string) => string,
  root: Readonly<Record<string, unknown>>,
  project: ApiProject | undefined,
): Promise<boolean | undefined> {
  if (!('suggestions' in root) || project?.statistics_url === undefined) return undefined;
  const url = new URL(resolve(project.statistics_url));
  url.searchParams.set('format', 'csv');
  return fetcher(
    url.href,
    (answer) => answer.status === 200 && answer.contentType.startsWith('text/csv'),
  );
}

/**
 * What a pull between sweeps starts from: the root read again, the
 * languages, projects and categories as the record keeps them; null when
 * the root places the instance in another flavour than `flavour`.
 */
export function quietStart(
  fetcher: Fetcher,
  options: WalkOptions,
  read: ReadRoot,
  kept: {
    flavour: WeblateVersion;
    languages: ApiLanguage[];
    selected: ApiProject[];
    categories: ReadonlyMap<string, ApiCategory[]>;
    lists: readonly ListObservation[];
  },
): WalkStart | null {
  const { root, date } = read;
  const apiRoot = root.projects.slice(0, -'projects/'.length);
  const walker = createWalker(fetcher, linkResolver(apiRoot, options.from), options.onProgress);
  // Only the root was read: it alone places the instance.
  const placed = detectFlavour(walker.evidence(root));
  if (!placed.ok || placed.version !== kept.flavour) return null;
  walker.lists.push(...kept.lists);
  return {
    from: options.from,
    apiRoot,
    changes: root.changes ?? null,
    date,
    languages: kept.languages,
    selected: kept.selected,
    partial: options.projects.length > 0,
    walker,
    flavour: kept.flavour,
    categories: kept.categories,
    root,
  };
}

/** The instance as walked: every list read, the components' own included; its flavour placed again with all it showed. */
export function finishWalk(start: WalkStart, projects: PulledProject[]): PulledInstance {
  const lists = [
    ...start.walker.lists,
    ...projects.flatMap((p) => p.components.flatMap((c) => c.lists)),
  ];
  const { apiRoot, languages, partial, date, flavour, categories } = start;
  const evidence = start.walker.evidence(start.root);
  placeFlavour(start.from, evidence);
  const statisticsCounters = statisticsCountersOf(evidence.statistics) ?? start.statisticsCounters;
  const keys = (body: unknown) =>
    typeof body === 'object' && body !== null ? Object.keys(body) : undefined;
  const project = keys(evidence.project) ?? keys(start.selected[0]);
  const component = keys(start.walker.componentSample()) ?? start.componentKeys;
  return {
    apiRoot,
    lists,
    instanceLists: [...start.walker.lists],
    languages,
    projects,
    partial,
    date,
    warnings: start.walker.warnings,
    flavour,
    categories,
    rootKeys: Object.keys(start.root),
    ...(statisticsCounters ? { statisticsCounters } : {}),
    ...(start.statisticsFormats === undefined
      ? {}
      : { statisticsFormats: start.statisticsFormats }),
    fieldsSeen: { ...(project ? { project } : {}), ...(component ? { component } : {}) },
  };
}

/** The pieces of a walk: lists followed page by page, single answers, a component's reads, a project's. */
type Walker = ReturnType<typeof createWalker>;

// --- internal ---

/**
 * Components read at once: enough to keep every connection busy, few enough
 * that what they hold until their reads are complete stays small. Without a
 * bound every component's reads wait in the queue at once, and those that
 * finish late hold their translations meanwhile.
 */
const COMPONENTS_AT_ONCE = 32;

/** Lists longer than this many pages are refused (a loop, or not Weblate). */
const MAX_PAGES = 100_000;

/** The flavour the evidence places the instance in; an instance it cannot place stops the pull. */
function placeFlavour(from: string, evidence: FlavourEvidence): WeblateVersion {
  const placed = detectFlavour(evidence);
  if (placed.ok) return placed.version;
  throw new PullError(
    `${from} serves an API this pull cannot mirror: ${placed.reason}. A mirror speaks Weblate 4.x's API or today's ` +
      '(Weblate 5.0 and later), and the bodies of this instance are not all of one of them. Nothing was written.',
    { resumable: false },
  );
}

/**
 * The selected projects' categories: from the root's list when the whole
 * instance is pulled (one list), else from each project's own.
 */
async function readCategories(
  walker: Walker,
  all: string | undefined,
  selected: readonly ApiProject[],
  partial: boolean,
): Promise<Map<string, ApiCategory[]>> {
  const bySlug = new Map(selected.map((project): [string, ApiCategory[]] => [project.slug, []]));
  if (all === undefined || partial) {
    const read = async (p: ApiProject) => {
      if (p.categories_url !== undefined)
        bySlug.set(p.slug, await walker.list(p.categories_url, categoryShape, 'a category'));
    };
    await Promise.all(selected.map(read));
    return bySlug;
  }
  // A project's link ends with its slug (no slug needs escaping).
  for (const category of await walker.list(all, categoryShape, 'a category')) {
    const slug = /\/projects\/([^/]+)\/$/.exec(category.project)?.[1];
    if (slug !== undefined) bySlug.get(slug)?.push(category);
  }
  return bySlug;
}

/** The API root and the server's date. */
export async function readRoot(
  fetcher: Fetcher,
  from: string,
): Promise<{ root: z.output<typeof rootShape>; date: string | null }> {
  return fetcher(from, (answer) => readRootAnswer(from, answer));
}

function readRootAnswer(
  from: string,
  answer: JsonAnswer,
): { root: z.output<typeof rootShape>; date: string | null } {
  const root = answer.status === 200 ? rootShape.safeParse(answer.body) : null;
  if (!root?.success || !root.data.projects.endsWith('/projects/')) {
    const got =
      answer.status !== 200
        ? `HTTP ${answer.status}`
        : answer.body === undefined
          ? `not JSON (${answer.contentType || 'no Content-Type'})`
          : 'JSON without a projects link';
    const hint = new URL(from).pathname.endsWith('/api/')
      ? ''
      : ` The API of a Weblate site is at ${new URL('/api/', from).href} (or below its URL prefix).`;
    // The first request: nothing was fetched that a re-run could resume from.
    throw new PullError(
      `${from} is not a Weblate API: ${new URL(from).pathname} did not answer with a JSON object listing projects (got ${got}).${hint}`,
      { resumable: false },
    );
  }
  return { root: root.data, date: answer.date ?? null };
}

/**
 * Maps a link the server wrote to the URL to fetch under `from`; refuses anything outside the API.
 * The link is resolved first (`..`, `%2e%2e`), then its prefix checked: `<api>/../secret/` is outside.
 */
function linkResolver(apiRoot: string, from: string): (link: string) => string {
  return (link) => {
    const resolved = URL.parse(link, from)?.href;
    if (resolved !== undefined) {
      if (resolved.startsWith(from)) return resolved;
      const mapped = resolved.startsWith(apiRoot)
        ? URL.parse(from + resolved.slice(apiRoot.length))?.href
        : undefined;
      if (mapped?.startsWith(from)) return mapped;
    }
    throw new PullError(
      `${from} links to ${link}, outside the API it announced (${apiRoot}); the pull does not follow it.`,
    );
  };
}

function selectProjects(
  projects: ApiProject[],
  slugs: readonly string[],
  from: string,
): ApiProject[] {
  if (slugs.length === 0) return projects;
  const bySlug = new Map(projects.map((project) => [project.slug, project]));
  const missing = slugs.filter((slug) => !bySlug.has(slug));
  if (missing.length > 0) {
    const known = projects.map((project) => project.slug).join(', ') || 'none';
    throw new PullError(
      `${from} has no project ${missing.map((slug) => `"${slug}"`).join(', ')} (projects there: ${known}).`,
    );
  }
  return projects.filter((project) => slugs.includes(project.slug));
}

function createWalker(
  fetcher: Fetcher,
  resolve: (link: string) => string,
  onProgress?: (progress: WalkProgress) => void,
) {
  const lists: ListObservation[] = [];
  const warnings: string[] = [];
  const progress: WalkProgress = { componentsDone: 0, componentsKnown: 0 };
  /** The first item of each kind of list, as served: what tells the flavour. */
  const samples = new Map<z.ZodType, unknown>();

  /** The JSON body at `link` read by `parse`; anything but JSON with 200 stops the pull. */
  const fetchOk = <T>(
    link: string,
    what: string,
    parse: (body: unknown, url: string) => T,
  ): Promise<T> => {
    const url = resolve(link);
    return fetcher(url, (answer) => parse(okBody(url, answer, what), url));
  };

  /** The JSON body at `link`, or null when it answers anything but JSON with 200 (what an older or restricted server may do). */
  const fetchOptional = (link: string): Promise<unknown> =>
    fetcher(resolve(link), (answer) =>
      answer.status === 200 && answer.body !== undefined ? answer.body : null,
    );

  /** A whole list, its pages followed; how it was cut goes to `into` (the instance's lists by default). */
  const list = async <T extends z.ZodType>(
    link: string,
    shape: T,
    what: string,
    into = lists,
  ): Promise<z.output<T>[]> => {
    const items: z.output<T>[] = [];
    const seen = new Set<string>();
    let next: string | null = link;
    let first: ListObservation | null = null;
    while (next !== null) {
      const read: ReturnType<typeof readPage<T>> = await fetchOk(
        next,
        'a page of a list',
        (body, url) => readPage(body, url, shape, what),
      );
      const { url, page, parsed } = read;
      if (seen.has(url)) throw new PullError(`${url} leads the list back to a page already read.`);
      if (seen.size >= MAX_PAGES)
        throw new PullError(`${url} is page ${MAX_PAGES + 1} of a list; the pull stops there.`);
      seen.add(url);
      first ??= { url, count: page.count, firstPageLength: page.results.length, next: page.next };
      if (!samples.has(shape) && page.results.length > 0) samples.set(shape, page.results[0]);
      items.push(...parsed);
      next = page.next;
      if (next !== null) refuseEndlessList(first, seen.size, items.length, url);
    }
    into.push(first!);
    if (items.length !== first!.count) {
      warnings.push(
        `${first!.url} announced ${first!.count} items but its pages held ${items.length}; did it change during the pull?`,
      );
    }
    return items;
  };

  /** A component's lock: from its object (today's Weblate), else from `lock/`. */
  const lock = async (c: ApiComponent): Promise<{ locked: boolean }> => {
    if (typeof c.locked === 'boolean') return { locked: c.locked };
    return fetchOk(c.lock_url, 'the lock state', (body, url) =>
      parseShape(lockShape, body, 'the lock state', url),
    );
  };

  const componentSlots = createSlots(COMPONENTS_AT_ONCE);

  /** A component's translations, statistics, lock and links; its statistics list may be given, already read. */
  const component = (c: ApiComponent, read?: ReadList<ApiStatistics>): Promise<PulledComponent> =>
    componentSlots.run(() => readComponent(c, read));

  const readComponent = async (
    c: ApiComponent,
    read?: ReadList<ApiStatistics>,
  ): Promise<PulledComponent> => {
    const own: ListObservation[] = read ? [read.observation] : [];
    const [translations, statisticsList, locked, links] = await Promise.all([
      list(c.translations_url, translationShape, 'a translation', own),
      read?.items ?? list(c.statistics_url, statisticsShape, 'translation statistics', own),
      lock(c),
      list(c.links_url, projectShape, 'a linked project', own),
    ]);
    const statistics = new Map(statisticsList.map((s) => [s.code, s]));
    for (const t of translations.filter((t) => !statistics.has(t.language.code))) {
      const read = (body: unknown, url: string) =>
        parseShape(statisticsShape, body, 'translation statistics', url);
      statistics.set(
        t.language.code,
        await fetchOk(t.statistics_url, 'translation statistics', read),
      );
    }
    done();
    return { component: c, translations, statistics, locked: locked.locked, links, lists: own };
  };

  /** Components counted as done (kept ones too); `known`: also as known (their list was not read). */
  const done = (count = 1, known = false) => {
    progress.componentsDone += count;
    if (known) progress.componentsKnown += count;
    onProgress?.({ ...progress });
  };

  /** A project's object read again at its own link; null when it is gone or hidden. */
  const projectObject = (link: string): Promise<ApiProject | null> =>
    fetcher(resolve(link), (answer) => {
      const parsed =
        answer.status === 200 && answer.body !== undefined
          ? projectShape.safeParse(answer.body)
          : null;
      return parsed?.success ? parsed.data : null;
    });

  /** A project's components, counted as known. */
  const listComponents = async (p: ApiProject): Promise<ApiComponent[]> => {
    const components = await list(p.components_list_url, componentShape, 'a component');
    progress.componentsKnown += components.length;
    onProgress?.({ ...progress });
    return components;
  };

  /** A project: its statistics (null when it serves none) read before its components; each component, read, to `settle`. */
  const project = async (p: ApiProject, settle?: SettleComponent): Promise<PulledProject> => {
    const statistics =
      p.statistics_url === undefined ? null : await fetchOptional(p.statistics_url);
    const components = await listComponents(p);
    // The slot is held until the component is settled: a full pull's writes cannot fall behind its reads.
    const read = (c: ApiComponent) =>
      componentSlots.run(async () => {
        const pulled = await readComponent(c);
        return settle ? settle(p, pulled) : pulled;
      });
    return { project: p, statistics, components: await Promise.all(components.map(read)) };
  };

  /** A list read with how it was cut (for a component's statistics, read before deciding to read the rest). */
  const readList = async <T extends z.ZodType>(
    link: string,
    shape: T,
    what: string,
  ): Promise<ReadList<z.output<T>>> => {
    const observed: ListObservation[] = [];
    const items = await list(link, shape, what, observed);
    return { items, observation: observed[0]! };
  };

  /**
   * The entries of the changes feed at `link`, or null when it serves none or
   * has more than `maxPages` pages; `firstPages`: those of the first pages only.
   */
  const changes = async (
    link: string,
    maxPages: number,
    firstPages = false,
  ): Promise<z.output<typeof changeShape>[] | null> => {
    const entries: z.output<typeof changeShape>[] = [];
    let next: string | null = link;
    for (let pages = 0; next !== null; pages++) {
      if (pages >= maxPages) return firstPages ? entries : null;
      const page: FeedPage | null = await fetcher(resolve(next), readFeedPage).catch(
        (error: unknown) => {
          if (error instanceof UnusableFeed) return null;
          throw error;
        },
      );
      if (page === null) return null;
      entries.push(...page.entries);
      next = page.next;
    }
    return entries;
  };

  /** What the bodies read so far tell of the flavour. */
  const evidence = (root: Readonly<Record<string, unknown>>): FlavourEvidence => ({
    root,
    language: samples.get(languageShape),
    project: samples.get(projectShape),
    statistics: samples.get(statisticsShape),
    translation: samples.get(translationShape),
  });

  return {
    lists,
    warnings,
    /** The first component of a list read, as served (its keys tell releases apart). */
    componentSample: () => samples.get(componentShape),
    list,
    readList,
    component,
    done,
    project,
    listComponents,
    projectObject,
    changes,
    fetchOptional,
    evidence,
  };
}

/**
 * A list whose pages go on past what its first page announced (its count, in
 * pages of the first page's length), beyond two pages of slack for a list
 * that grows during the pull: a `next` chain without end, stopped before it
 * fills the resume file.
 */
function refuseEndlessList(
  first: ListObservation,
  pages: number,
  items: number,
  url: string,
): void {
  const pageLength = Math.max(first.firstPageLength, 1);
  const slack = 2;
  if (
    pages < Math.ceil(first.count / pageLength) + slack &&
    items <= first.count + slack * pageLength
  )
    return;
  throw new PullError(
    `${url} goes on past the ${first.count} items ${first.url} announced (${items} items in ${pages} pages so far); the pull stops there.`,
  );
}

/** A list's items and how it was cut. */
interface ReadList<T> {
  items: T[];
  observation: ListObservation;
}

/** A page of a list and its items, each checked against `shape`. */
function readPage<T extends z.ZodType>(
  body: unknown,
  url: string,
  shape: T,
  what: string,
): { url: string; page: z.output<typeof pageShape>; parsed: z.output<T>[] } {
  const page = parseShape(pageShape, body, 'a page of a list', url);
  const parsed: z.output<T>[] = page.results.map((item, index) =>
    parseShape(shape, item, `${what} (item ${index + 1})`, url),
  );
  return { url, page, parsed };
}

/** The body of an answer that must be JSON with 200. */
function okBody(url: string, answer: JsonAnswer, what: string): unknown {
  if (answer.status !== 200)
    throw new PullError(
      `${url} answered HTTP ${answer.status}${detailOf(answer.body)} where ${what} was expected.`,
    );
  if (answer.body === undefined)
    throw new PullError(
      `${url} did not answer with JSON (${answer.contentType || 'no Content-Type'}) where ${what} was expected.`,
    );
  return answer.body;
}

/** A page of the changes feed that is not one: the feed is not used (and the page not kept). */
class UnusableFeed extends Error {}

interface FeedPage {
  entries: z.output<typeof changeShape>[];
  next: string | null;
}

function readFeedPage(answer: JsonAnswer): FeedPage {
  const parsed = answer.status === 200 ? pageShape.safeParse(answer.body) : null;
  if (!parsed?.success) throw new UnusableFeed();
  const entries = parsed.data.results.map((item) => {
    const entry = changeShape.safeParse(item);
    if (!entry.success) throw new UnusableFeed();
    return entry.data;
  });
  return { entries, next: parsed.data.next };
}

function detailOf(body: unknown): string {
  return typeof body === 'object' && body !== null && 'detail' in body
    ? ` (${String(body.detail)})`
    : '';
}
