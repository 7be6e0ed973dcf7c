/**
 * One component and its translations as a content file. Settings are written
 * when they differ from Weblate's defaults; the source translation is written
 * explicitly (its counters cannot always be derived); each translation gets its
 * id and the counters the generator cannot derive, taken from the Translation
 * object and, for those it lacks (chars, approved, read-only, recent changes),
 * from its statistics. Of today's Weblate (given a Flavour2026Context, the 2026.8
 * flavour) also its category, its settings there, the counters its statistics
 * add, and a repository it shares as `weblate://` (map-2026.ts).
 */
import { spdxLicenseUrl } from '../content/prepare.ts';
import type { ApiComponent, ApiStatistics, ApiTranslation } from './shapes.ts';
import type { PulledComponent } from './walk.ts';
import {
  COMPONENT_FIELD_DEFAULTS,
  COMPONENT_FIELD_DEFAULTS_2026,
  INHERITABLE_DEFAULTS_2026,
  GLOSSARY_FIELD_DEFAULTS,
} from '../model/defaults.ts';
import { type ContentFile } from './content-file.ts';
import { dropUnsafeLinks } from './map-links.ts';
import {
  componentCategory,
  componentFields2026,
  LINKED_REPOSITORY_SETTINGS,
  repositoryLink,
  type Flavour2026Context,
} from './map-2026.ts';

/** Settings a component showed as null (hidden from the caller). */
export interface HiddenFields {
  component: string;
  fields: string[];
}

interface MappedComponent {
  file: ContentFile;
  warnings: string[];
  hidden: HiddenFields | null;
}

/** Maps a component; `current` for today's Weblate (the 2026.8 flavour), whose warnings go to the component's own. */
export function mapComponent(
  projectSlug: string,
  pulled: PulledComponent,
  pulledProjects: ReadonlySet<string>,
  current?: Flavour2026Context,
): MappedComponent {
  const c = pulled.component;
  const key = `${projectSlug}/${c.slug}`;
  const warnings: string[] = [];
  const context = current && { ...current, warnings };
  const { settings, hidden } = mapSettings(projectSlug, c, pulled.translations, context);
  const value: Record<string, unknown> = { name: c.name };
  if (c.id !== undefined) value.id = c.id;
  const category = context && componentCategory(projectSlug, c, context);
  if (category !== undefined) value.category = category;
  value.source_language = c.source_language.code;
  Object.assign(value, settings);
  if (context) Object.assign(value, componentFields2026(projectSlug, c, settings, context));
  dropUnsafeLinks(value, `Component ${key}`, warnings);
  if (pulled.locked) value.locked = true;
  const links = pulled.links.map((project) => project.slug);
  const kept = links.filter((slug) => pulledProjects.has(slug));
  if (kept.length < links.length) {
    warnings.push(
      `${key} is also shared into ${links.filter((slug) => !pulledProjects.has(slug)).join(', ')}, not pulled: that link is left out.`,
    );
  }
  if (kept.length > 0) value.links = kept;
  if ((c.addons?.length ?? 0) > 0)
    warnings.push(
      `${key} has ${c.addons!.length} add-on(s); add-ons are not mirrored (addons is empty).`,
    );
  const source = sourceCounters(c, pulled);
  value.source = source;
  value.translations = mapTranslations(pulled, source, settings);
  return {
    file: { path: componentPath(projectSlug, c.slug), value },
    warnings,
    hidden: hidden.length > 0 ? { component: key, fields: hidden } : null,
  };
}

/** Where a component's file goes in the content folder. */
export function componentPath(project: string, component: string): string {
  return `projects/${project}/components/${component}.yaml`;
}

// --- internal ---

type Totals = { total: number; total_words: number; total_chars: number };

/** Fields the content format requires even when they equal a default. */
const REQUIRED = new Set(['repo', 'filemask', 'file_format']);

/** Today's component defaults: 4.x's with today's message templates, and the settings only today's Weblate has. */
const CURRENT_DEFAULTS: Readonly<Record<string, unknown>> = {
  ...COMPONENT_FIELD_DEFAULTS,
  ...Object.fromEntries(
    Object.entries(INHERITABLE_DEFAULTS_2026).filter(([key]) => key.endsWith('_message')),
  ),
  ...COMPONENT_FIELD_DEFAULTS_2026,
};

function mapSettings(
  projectSlug: string,
  c: ApiComponent,
  translations: readonly ApiTranslation[],
  current: Flavour2026Context | undefined,
): { settings: Record<string, unknown>; hidden: string[] } {
  const served = c as unknown as Record<string, unknown>;
  const defaults: Record<string, unknown> = {
    ...(current ? CURRENT_DEFAULTS : COMPONENT_FIELD_DEFAULTS),
    ...(c.is_glossary ? GLOSSARY_FIELD_DEFAULTS : {}),
  };
  const link = current ? repositoryLink(projectSlug, c, current) : null;
  const settings: Record<string, unknown> = {};
  const hidden: string[] = [];
  for (const [key, fallback] of Object.entries(defaults)) {
    let value = served[key];
    if (value === undefined) continue; // an older Weblate without this field: the default stands
    if (link !== null && LINKED_REPOSITORY_SETTINGS.includes(key))
      value = key === 'repo' ? link : fallback; // the shared one's
    if (value === null) {
      hidden.push(key);
      value = key === 'filemask' ? guessFilemask(c, translations) : (fallback ?? '');
    }
    if (REQUIRED.has(key) || !sameValue(value, fallback)) settings[key] = value;
    if (
      key === 'license' &&
      c.license_url !== undefined &&
      c.license_url !== spdxLicenseUrl(licenseInEffect(c, current, value))
    ) {
      settings.license_url = c.license_url;
    }
  }
  return { settings, hidden };
}

/** The license whose SPDX page the build takes for `license_url`: the own one in 4.x, the one in effect in 2026.8. */
function licenseInEffect(
  c: ApiComponent,
  current: Flavour2026Context | undefined,
  own: unknown,
): string {
  return String(current && typeof c.effective_license === 'string' ? c.effective_license : own);
}

/** A file mask that gives most translations' file names, for a component that hides it. */
function guessFilemask(c: ApiComponent, translations: readonly ApiTranslation[]): string {
  const candidates = translations
    .filter(
      (t) =>
        t.language.code !== c.source_language.code &&
        t.filename &&
        t.filename.includes(t.language_code),
    )
    .map((t) => t.filename!.replace(t.language_code, '*'));
  const counts = new Map<string, number>();
  for (const mask of candidates) counts.set(mask, (counts.get(mask) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '*';
}

/** The source strings' counters: the source translation's totals (all translations share them as a rule). */
function sourceCounters(c: ApiComponent, pulled: PulledComponent): Totals {
  const source =
    pulled.translations.find((t) => t.language.code === c.source_language.code) ??
    pulled.translations[0];
  if (!source) return { total: 0, total_words: 0, total_chars: 0 };
  return totalsOf(source, pulled.statistics.get(source.language.code));
}

function totalsOf(t: ApiTranslation, statistics: ApiStatistics | undefined): Totals {
  return { total: t.total, total_words: t.total_words, total_chars: statistics?.total_chars ?? 0 };
}

function mapTranslations(
  pulled: PulledComponent,
  source: Totals,
  settings: Record<string, unknown>,
): Record<string, unknown> {
  const sourceCode = pulled.component.source_language.code;
  const filemask = settings.filemask as string;
  const template = (settings.template as string | undefined) ?? COMPONENT_FIELD_DEFAULTS.template;
  const entries: Record<string, unknown> = {};
  for (const t of pulled.translations) {
    const isSource = t.language.code === sourceCode;
    const defaultFilename = isSource ? template : filemask.replace('*', t.language_code);
    entries[t.language.code] = mapTranslation(
      t,
      pulled.statistics.get(t.language.code),
      source,
      defaultFilename,
    );
  }
  return entries;
}

/** One translation entry, its fields in the order of the content format. */
function mapTranslation(
  t: ApiTranslation,
  statistics: ApiStatistics | undefined,
  source: Totals,
  defaultFilename: string,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (t.id !== undefined) entry.id = t.id;
  const filename = t.filename ?? '';
  if (filename !== defaultFilename) entry.filename = filename;
  if (t.language_code !== t.language.code) entry.language_code = t.language_code;
  if (t.revision) entry.revision = t.revision;
  const totals = totalsOf(t, statistics);
  for (const name of ['total', 'total_words', 'total_chars'] as const) {
    if (totals[name] !== source[name]) entry[name] = totals[name];
  }
  // fuzzy_chars, approved_words/_chars and readonly_words/_chars: the statistics of Weblate 5.2 and later.
  const counters = {
    translated: t.translated,
    translated_words: t.translated_words,
    translated_chars: statistics?.translated_chars ?? 0,
    fuzzy: t.fuzzy,
    fuzzy_words: t.fuzzy_words,
    fuzzy_chars: statistics?.fuzzy_chars ?? 0,
    failing_checks: t.failing_checks,
    failing_checks_words: t.failing_checks_words,
    approved: statistics?.approved ?? 0,
    approved_words: statistics?.approved_words ?? 0,
    approved_chars: statistics?.approved_chars ?? 0,
    readonly: statistics?.readonly ?? 0,
    readonly_words: statistics?.readonly_words ?? 0,
    readonly_chars: statistics?.readonly_chars ?? 0,
    have_suggestion: t.have_suggestion,
    have_comment: t.have_comment,
    recent_changes: statistics?.recent_changes ?? 0,
  };
  for (const [name, value] of Object.entries(counters)) if (value !== 0) entry[name] = value;
  if (t.last_change !== null) entry.last_change = t.last_change;
  if (t.last_author !== null) entry.last_author = t.last_author;
  return entry;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => item === b[index]);
  if (isMap(a) && isMap(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** A map of parameters (vcs_params, file_format_params). */
function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
