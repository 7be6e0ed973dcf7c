/**
 * Walks a Weblate 4.x API: the root, the projects, their components, each
 * component's translations, statistics, lock and links, and the languages.
 * Lists are followed through their `next` links (`?page=N` or page paths).
 * Links the server writes with its own host are fetched under the URL the
 * user gave, and nothing outside it is ever requested (the token stays there).
 */
import type { JsonAnswer } from './http.ts';
import { PullError } from './errors.ts';
import {
  componentShape,
  languageShape,
  lockShape,
  pageShape,
  parseShape,
  projectShape,
  rootShape,
  statisticsShape,
  translationShape,
  type ApiComponent,
  type ApiLanguage,
  type ApiProject,
  type ApiStatistics,
  type ApiTranslation,
} from './shapes.ts';
import type { z } from 'zod';

/** Gets one URL (from the network or the resume file). */
export type Fetcher = (url: string) => Promise<JsonAnswer>;

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
}

interface PulledProject {
  project: ApiProject;
  components: PulledComponent[];
}

export interface PulledInstance {
  /** The API root as the server writes it in its own links: `https://weblate.example.org/api/`. */
  apiRoot: string;
  lists: ListObservation[];
  languages: ApiLanguage[];
  projects: PulledProject[];
  /** Whether only some projects were pulled (`--project`). */
  partial: boolean;
  warnings: string[];
}

export async function walkApi(fetcher: Fetcher, options: WalkOptions): Promise<PulledInstance> {
  const { from } = options;
  const root = await readRoot(fetcher, from);
  const apiRoot = root.projects.slice(0, -'projects/'.length);
  const walker = createWalker(fetcher, linkResolver(apiRoot, from), options.onProgress);
  const [languages, allProjects] = await Promise.all([
    walker.list(root.languages ?? `${apiRoot}languages/`, languageShape, 'a language'),
    walker.list(root.projects, projectShape, 'a project'),
  ]);
  const selected = selectProjects(allProjects, options.projects, from);
  const projects = await Promise.all(selected.map((project) => walker.project(project)));
  return { apiRoot, lists: walker.lists, languages, projects, partial: options.projects.length > 0, warnings: walker.warnings };
}

// --- internal ---

/** Lists longer than this many pages are refused (a loop, or not Weblate). */
const MAX_PAGES = 100_000;

async function readRoot(fetcher: Fetcher, from: string): Promise<z.output<typeof rootShape>> {
  const answer = await fetcher(from);
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
    throw new PullError(
      `${from} is not a Weblate API: ${new URL(from).pathname} did not answer with a JSON object listing projects (got ${got}).${hint}`,
    );
  }
  return root.data;
}

/** Maps a link the server wrote to the URL to fetch under `from`; refuses anything outside the API. */
function linkResolver(apiRoot: string, from: string): (link: string) => string {
  return (link) => {
    if (link.startsWith(apiRoot)) return from + link.slice(apiRoot.length);
    if (link.startsWith(from)) return link;
    throw new PullError(`${from} links to ${link}, outside the API it announced (${apiRoot}); the pull does not follow it.`);
  };
}

function selectProjects(projects: ApiProject[], slugs: readonly string[], from: string): ApiProject[] {
  if (slugs.length === 0) return projects;
  const bySlug = new Map(projects.map((project) => [project.slug, project]));
  const missing = slugs.filter((slug) => !bySlug.has(slug));
  if (missing.length > 0) {
    const known = projects.map((project) => project.slug).join(', ') || 'none';
    throw new PullError(`${from} has no project ${missing.map((slug) => `"${slug}"`).join(', ')} (projects there: ${known}).`);
  }
  return projects.filter((project) => slugs.includes(project.slug));
}

function createWalker(fetcher: Fetcher, resolve: (link: string) => string, onProgress?: (progress: WalkProgress) => void) {
  const lists: ListObservation[] = [];
  const warnings: string[] = [];
  const progress: WalkProgress = { componentsDone: 0, componentsKnown: 0 };

  const fetchOk = async (link: string, what: string): Promise<{ url: string; body: unknown }> => {
    const url = resolve(link);
    const answer = await fetcher(url);
    if (answer.status !== 200)
      throw new PullError(`${url} answered HTTP ${answer.status}${detailOf(answer.body)} where ${what} was expected.`);
    if (answer.body === undefined)
      throw new PullError(`${url} did not answer with JSON (${answer.contentType || 'no Content-Type'}) where ${what} was expected.`);
    return { url, body: answer.body };
  };

  const list = async <T extends z.ZodType>(link: string, shape: T, what: string): Promise<z.output<T>[]> => {
    const items: z.output<T>[] = [];
    const seen = new Set<string>();
    let next: string | null = link;
    let first: ListObservation | null = null;
    while (next !== null) {
      const { url, body } = await fetchOk(next, 'a page of a list');
      if (seen.has(url)) throw new PullError(`${url} leads the list back to a page already read.`);
      if (seen.size >= MAX_PAGES) throw new PullError(`${url} is page ${MAX_PAGES + 1} of a list; the pull stops there.`);
      seen.add(url);
      const page = parseShape(pageShape, body, 'a page of a list', url);
      first ??= { url, count: page.count, firstPageLength: page.results.length, next: page.next };
      page.results.forEach((item, index) => items.push(parseShape(shape, item, `${what} (item ${index + 1})`, url)));
      next = page.next;
    }
    lists.push(first!);
    if (items.length !== first!.count) {
      warnings.push(`${first!.url} announced ${first!.count} items but its pages held ${items.length}; did it change during the pull?`);
    }
    return items;
  };

  const component = async (c: ApiComponent): Promise<PulledComponent> => {
    const [translations, statisticsList, lock, links] = await Promise.all([
      list(c.translations_url, translationShape, 'a translation'),
      list(c.statistics_url, statisticsShape, 'translation statistics'),
      fetchOk(c.lock_url, 'the lock state').then(({ url, body }) => parseShape(lockShape, body, 'the lock state', url)),
      list(c.links_url, projectShape, 'a linked project'),
    ]);
    const statistics = new Map(statisticsList.map((s) => [s.code, s]));
    for (const t of translations.filter((t) => !statistics.has(t.language.code))) {
      const { url, body } = await fetchOk(t.statistics_url, 'translation statistics');
      statistics.set(t.language.code, parseShape(statisticsShape, body, 'translation statistics', url));
    }
    progress.componentsDone++;
    onProgress?.({ ...progress });
    return { component: c, translations, statistics, locked: lock.locked, links };
  };

  const project = async (p: ApiProject): Promise<PulledProject> => {
    const components = await list(p.components_list_url, componentShape, 'a component');
    progress.componentsKnown += components.length;
    onProgress?.({ ...progress });
    return { project: p, components: await Promise.all(components.map(component)) };
  };

  return { lists, warnings, list, project };
}

function detailOf(body: unknown): string {
  return typeof body === 'object' && body !== null && 'detail' in body ? ` (${String(body.detail)})` : '';
}
