/**
 * The pull record, `<out>/.pull-record.json`: what an incremental pull
 * (refresh.ts) needs of the pull before it. For each project, digests of
 * its object and its statistics, and its components in their order; for
 * each component, digests of its object and of its
 * statistics as listed, the size and time of the file written for it, and
 * what the rest of the content needs of it without reading it again (the
 * languages it uses, its translations, the lists it was cut into, what its
 * mapping warned of). Of today's Weblate also its flavour, and a digest of
 * each project's categories. Written last, once the files are; a record that is
 * missing, damaged, or made for another API or other projects is not used,
 * and the pull reads everything.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../output/atomic.ts';
import { WEBLATE_VERSIONS } from '../model/defaults.ts';
import type { MappedContent } from './map.ts';
import { componentPath } from './map-component.ts';
import { languageShape, type ApiCategory, type ApiLanguage, type ApiProject } from './shapes.ts';
import { parseSweepEvery, type SweepRecord } from './sweep.ts';
import type { ListObservation, PulledComponent, PulledInstance } from './walk.ts';

export const RECORD_FILE = '.pull-record.json';

export type PullRecord = z.output<typeof recordShape>;
export type ComponentRecord = z.output<typeof componentRecordShape>;

/** The record of the pull into `outDir`, when it was made from `from` for the same projects (`selection`, sorted; empty for all). */
export async function readRecord(
  outDir: string,
  from: string,
  selection: readonly string[],
): Promise<PullRecord | null> {
  const text = await readFile(join(outDir, RECORD_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = recordShape.safeParse(value);
  if (
    !parsed.success ||
    parsed.data.from !== from ||
    parsed.data.selection.join(',') !== [...selection].sort().join(',')
  )
    return null;
  return parsed.data;
}

/** The record of a pull whose files are written: fresh components described anew, kept ones as they were. */
export async function recordPull(
  outDir: string,
  pull: {
    from: string;
    selection: readonly string[];
    instance: PulledInstance;
    mapped: MappedContent;
    previous: PullRecord | null;
    sweep: SweepRecord;
    /** Entries of components written as soon as they were read (kept by this pull), by file path. */
    settled?: ReadonlyMap<string, ComponentRecord>;
  },
): Promise<void> {
  const { instance, mapped, previous } = pull;
  const record: PullRecord = {
    version: 1,
    from: pull.from,
    selection: [...pull.selection].sort(),
    date: instance.date,
    languages: {},
    projects: {},
    sweep: pull.sweep,
    start: startOf(instance, previous),
  };
  // A 4.x pull's record stays as it was: no flavour (4 when absent), no categories.
  const current = (instance.flavour ?? '4') !== '4';
  if (current) record.flavour = instance.flavour;
  for (const pulled of instance.projects) {
    const { project, statistics, components } = pulled;
    const entries: ComponentRecord[] = [];
    const before = new Map(
      previous?.projects[project.slug]?.components.map((entry) => [entry.slug, entry]),
    );
    for (const component of components) {
      const slug = 'kept' in component ? component.slug : component.component.slug;
      const path = componentPath(project.slug, slug);
      const file = await fileStamp(join(outDir, path));
      if ('kept' in component) {
        entries.push({ ...(pull.settled?.get(path) ?? before.get(slug)!), file });
        for (const language of component.languages) record.languages[language.code] = language;
        continue;
      }
      const notes = mapped.notes.get(path) ?? {
        warnings: [],
        hidden: [],
      };
      entries.push(describeComponent(component, file, notes));
      for (const language of languagesOf(component)) record.languages[language.code] = language;
    }
    const object = digest(project);
    const unread = 'statisticsUnread' in pulled;
    record.projects[project.slug] = {
      object,
      statistics: unread
        ? (previous?.projects[project.slug]?.statistics ?? null)
        : statistics === null
          ? null
          : digest(statistics),
      components: entries,
    };
    if (current)
      record.projects[project.slug]!.categories = categoriesDigest(instance, project.slug);
  }
  await writeFileAtomic(join(outDir, RECORD_FILE), `${JSON.stringify(record)}\n`);
}

/**
 * The record of the pull into `outDir` made true of its files again after
 * they were copied back from a checked copy (a mirror's state in the store):
 * each component file of the recorded size gets its new time, so the next
 * pull keeps it instead of reading it again. No record, nothing done.
 */
export async function restampRecord(outDir: string): Promise<void> {
  const text = await readFile(join(outDir, RECORD_FILE), 'utf8').catch(() => null);
  const parsed = text === null ? null : recordShape.safeParse(safeJson(text));
  if (!parsed?.success) return;
  const record = parsed.data;
  for (const [slug, project] of Object.entries(record.projects))
    for (const component of project.components) {
      const now = await fileStamp(join(outDir, componentPath(slug, component.slug)));
      if (now && component.file?.size === now.size) component.file = now;
    }
  await writeFileAtomic(join(outDir, RECORD_FILE), `${JSON.stringify(record)}\n`);
}

/** A digest of a JSON value as served (its keys in their order). */
export function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64').slice(0, 22);
}

/** A digest of a project's categories as read (today's Weblate). */
export function categoriesDigest(
  instance: Pick<PulledInstance, 'categories'>,
  project: string,
): string {
  return digest(instance.categories?.get(project) ?? []);
}

/** The size and time of a file; null when it is gone. */
export async function fileStamp(file: string): Promise<{ size: number; mtimeMs: number } | null> {
  const info = await lstat(file).catch(() => null);
  return info ? { size: info.size, mtimeMs: info.mtimeMs } : null;
}

/** A component's entry in the record; `file`: the stamp of the file written for it. */
export function describeComponent(
  pulled: PulledComponent,
  file: { size: number; mtimeMs: number } | null,
  notes: { warnings: string[]; hidden: string[] },
): ComponentRecord {
  return {
    slug: pulled.component.slug,
    object: digest(pulled.component),
    // As listed: what an incremental pull compares with the list it reads.
    statistics: digest([...pulled.statistics.values()]),
    file,
    links: pulled.links.map((project) => project.slug),
    languages: languagesOf(pulled).map((language) => language.code),
    translations: pulled.translations.length,
    lists: compactLists(pulled.lists),
    warnings: notes.warnings,
    hidden: notes.hidden,
  };
}

/** The source language, then each translation's, once each. */
export function languagesOf(pulled: PulledComponent): ApiLanguage[] {
  const languages = new Map<string, ApiLanguage>([
    [pulled.component.source_language.code, pulled.component.source_language],
  ]);
  for (const t of pulled.translations) languages.set(t.language.code, t.language);
  return [...languages.values()];
}

// --- internal ---

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const stamp = z.object({ size: z.number(), mtimeMs: z.number() });

const listShape = z.object({
  url: z.string(),
  count: z.number(),
  firstPageLength: z.number(),
  next: z.string().nullable(),
});

const componentRecordShape = z.object({
  slug: z.string(),
  object: z.string(),
  statistics: z.string(),
  file: stamp.nullable(),
  links: z.array(z.string()),
  languages: z.array(z.string()),
  translations: z.number(),
  lists: z.array(listShape),
  warnings: z.array(z.string()),
  hidden: z.array(z.string()),
});

/** Bodies kept as served (their keys in their order): a digest of one read back is the digest of the one read. */
const served = <T>() => z.array(z.record(z.string(), z.unknown()).transform((value) => value as T));

/** What a pull between sweeps takes from the record instead of reading it again (refresh.ts). */
const startShape = z.object({
  languages: served<ApiLanguage>(),
  projects: served<ApiProject>(),
  /** The instance's own lists as last read (not the components'), by URL. */
  lists: z.array(listShape),
  categories: z.record(z.string(), served<ApiCategory>()),
  /** How many counters the statistics had (21 in Weblate 5.0 and 5.1), when any was seen. */
  statisticsCounters: z.union([z.literal(21), z.literal(33)]).optional(),
  /** A component's keys as served, when any was read (later releases add fields). */
  componentKeys: z.array(z.string()).optional(),
  /** Whether the statistics answered `?format=csv`, when asked (a root with `suggestions`). */
  statisticsFormats: z.boolean().optional(),
});

const sweepShape = z.object({
  every: z.string().refine((text) => parseSweepEvery(text) !== null),
  date: z.string().nullable(),
  runs: z.number(),
  listed: z.boolean(),
});

const recordShape = z.object({
  version: z.literal(1),
  from: z.string(),
  selection: z.array(z.string()),
  date: z.string().nullable(),
  /** Absent for Weblate 4.x. */
  flavour: z.enum(WEBLATE_VERSIONS).optional(),
  languages: z.record(z.string(), languageShape),
  projects: z.record(
    z.string(),
    z.object({
      object: z.string(),
      statistics: z.string().nullable(),
      /** Today's Weblate: a digest of the project's categories. */
      categories: z.string().optional(),
      components: z.array(componentRecordShape),
    }),
  ),
  /** Absent in a record of a pull before sweeps: the next pull sweeps. */
  sweep: sweepShape.optional(),
  start: startShape.optional(),
});

/** The instance as this pull saw it; lists it did not read again are kept from the earlier record. */
function startOf(
  instance: PulledInstance,
  previous: PullRecord | null,
): z.output<typeof startShape> {
  const lists = new Map((previous?.start?.lists ?? []).map((list) => [list.url, list]));
  for (const list of instance.instanceLists ?? []) lists.set(list.url, list);
  const componentKeys = instance.fieldsSeen?.component;
  return {
    languages: instance.languages,
    projects: instance.projects.map((pulled) => pulled.project),
    lists: [...lists.values()],
    categories: Object.fromEntries(instance.categories ?? []),
    ...(instance.statisticsCounters ? { statisticsCounters: instance.statisticsCounters } : {}),
    ...(componentKeys ? { componentKeys: [...componentKeys] } : {}),
    ...(instance.statisticsFormats === undefined
      ? {}
      : { statisticsFormats: instance.statisticsFormats }),
  };
}

/** What the page size and style are told from: the lists cut into pages, and the longest one. */
function compactLists(lists: readonly ListObservation[]): ListObservation[] {
  const cut = lists.filter((list) => list.next !== null);
  const longest = Math.max(0, ...lists.map((list) => list.count));
  return [...cut, { url: '', count: longest, firstPageLength: 0, next: null }];
}
