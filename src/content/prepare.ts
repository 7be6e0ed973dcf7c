/**
 * A component file, checked, in the compact form the model is built from:
 * Weblate's defaults applied, counters complete. Made as soon as a file is
 * read, so the parsed YAML of a large instance is never held all at once;
 * nothing here depends on another file (languages and projects are named by
 * code and slug, resolved later).
 */
import type { Counters } from '../model/statistics.ts';
import { parseTimestamp, type Timestamp } from '../model/timestamps.ts';
import type { ComponentSettings } from '../model/types.ts';
import { internalError } from '../errors.ts';
import { Hasher } from '../model/fingerprint.ts';
import { derivedId } from '../model/ids.ts';
import type { Intern } from '../model/intern.ts';
import { ownCopy } from '../model/text-copy.ts';
import { type ComponentFile, type TranslationEntry } from './schema.ts';
import {
  COMPONENT_FIELD_DEFAULTS,
  COMPONENT_FIELD_DEFAULTS_2026,
  FLAVOUR_ONLY_FIELDS,
  GLOSSARY_FIELD_DEFAULTS,
  INHERITABLE_SETTINGS,
  type InheritableSetting,
} from '../model/defaults.ts';

export interface PreparedComponent {
  name: string;
  /** The id: from the file, or derived from the component's slug path. */
  id: number;
  /** Whether the file gives the id (else it is derived). */
  explicitId: boolean;
  /** The derived id of the source translation, for when the file does not list it. */
  sourceTranslationId: number;
  /** The source language's code. */
  sourceLanguage: string;
  settings: ComponentSettings;
  /** `license_url` as given by the file (a URL or null), or undefined when it is not. */
  givenLicenseUrl: string | null | undefined;
  /** `license_url` as the 4 flavour shows it: from the file, else the SPDX page of the license id, else null. */
  licenseUrl: string | null;
  /** The 2026.8 flavour's references and switches: the category's slug, the secondary language's code, the `inherit_*` the file sets. */
  current: {
    category: string | null;
    secondaryLanguage: string | null;
    inherit: Partial<Record<InheritableSetting, boolean>>;
  };
  /**
   * The keys the file gives among those whose meaning depends on the flavour:
   * the settings of one flavour only (an error in the other) and the
   * inheritable settings (a message left out takes the flavour's default; a
   * setting given is not inherited unless told).
   */
  givenKeys: readonly string[];
  locked: boolean;
  /** Slugs of the projects the component is shared into. */
  links: string[];
  /** Counters of the source strings (what every translation counts by default). */
  source: { total: number; total_words: number; total_chars: number };
  /** The translations the file lists, in its order. */
  translations: PreparedTranslation[];
  /** Digest of everything above but the translations. */
  fingerprint: number;
}

export interface PreparedTranslation {
  /** The language code the entry is keyed by. */
  code: string;
  /** The id: from the file, or derived from the translation's slug path. */
  id: number;
  /** `language_code` and `filename` when the file gives them; derived later otherwise. */
  languageCode: string | undefined;
  filename: string | undefined;
  revision: string;
  counters: Counters;
  lastAuthor: string | null;
  /** Digest of everything above. */
  fingerprint: number;
}

/**
 * A copy of a string that does not keep its source alive. The YAML parser
 * returns scalars as slices of the file's text, and V8 keeps the whole text
 * for as long as any slice of it lives: 40 characters of a revision would
 * otherwise hold a 4 KB file in memory.
 */
const detach = ownCopy;

/** Prepares the component at `projects/<project>/components/<component>.yaml`. */
export function prepareComponent(data: ComponentFile, project: string, component: string): PreparedComponent {
  const path = `${project}/${component}`;
  const source = {
    total: data.source?.total ?? 0,
    total_words: data.source?.total_words ?? 0,
    total_chars: data.source?.total_chars ?? 0,
  };
  const prepared = {
    name: detach(data.name),
    id: data.id ?? derivedId('component', path),
    explicitId: data.id !== undefined,
    sourceTranslationId: derivedId('translation', `${path}/${data.source_language}`),
    sourceLanguage: detach(data.source_language),
    settings: componentSettings(data),
    givenLicenseUrl: data.license_url === undefined ? undefined : detach(data.license_url),
    licenseUrl: data.license_url !== undefined ? detach(data.license_url) : spdxLicenseUrl(data.license ?? ''),
    current: {
      category: detach(data.category ?? null),
      secondaryLanguage: detach(data.secondary_language ?? null),
      inherit: inheritSwitches(data),
    },
    givenKeys: givenKeys(data),
    locked: data.locked ?? false,
    links: (data.links ?? []).map(detach),
    source,
    translations: Object.entries(data.translations ?? {}).map(([code, entry]) => prepareTranslation(path, code, entry ?? {}, source)),
  };
  // Every field but the translations (each has a fingerprint of its own).
  const h = new Hasher().text(path);
  for (const [key, value] of Object.entries(prepared)) if (key !== 'translations') h.text(key).value(value);
  const p = prepared;
  return {
    name: p.name, id: p.id, explicitId: p.explicitId, sourceTranslationId: p.sourceTranslationId, sourceLanguage: p.sourceLanguage,
    settings: p.settings, givenLicenseUrl: p.givenLicenseUrl, licenseUrl: p.licenseUrl, current: p.current, givenKeys: p.givenKeys,
    locked: p.locked, links: p.links, source: p.source, translations: p.translations, fingerprint: h.digest(),
  };
}

/** A translation entry made from its fields, with its fingerprint (also for the derived source translation). */
export function translationEntry(fields: Omit<PreparedTranslation, 'fingerprint'>): PreparedTranslation {
  const c = fields.counters;
  const h = new Hasher()
    .text(fields.code).number(fields.id).text(fields.languageCode ?? '\u0000').text(fields.filename ?? '\u0000')
    .text(fields.revision).text(fields.lastAuthor ?? '\u0000')
    .number(c.total).number(c.total_words).number(c.total_chars).number(c.translated).number(c.translated_words)
    .number(c.translated_chars).number(c.fuzzy).number(c.fuzzy_words).number(c.fuzzy_chars).number(c.failing_checks)
    .number(c.failing_checks_words).number(c.approved).number(c.approved_words).number(c.approved_chars)
    .number(c.readonly).number(c.readonly_words).number(c.readonly_chars).number(c.have_suggestion)
    .number(c.have_comment).number(c.recent_changes).text(c.last_change ?? '\u0000');
  // Spelled out, not spread: a spread past a few shapes gives each object a hidden class of its own.
  return {
    code: fields.code, id: fields.id, languageCode: fields.languageCode, filename: fields.filename,
    revision: fields.revision, counters: fields.counters, lastAuthor: fields.lastAuthor, fingerprint: h.digest(),
  };
}

/**
 * Keeps once, through `intern`, the texts that many prepared components repeat: their settings'
 * message templates, their translations' codes, file names and authors. A checked file arrives
 * as a copy (a structured clone, or strings detached from its text), so until the model is built
 * from them a million translations would hold each of these hundreds of thousands of times.
 */
export function sharePreparedTexts(component: PreparedComponent, intern: Intern): void {
  const settings = component.settings as unknown as Record<string, unknown>;
  for (const key in settings) {
    const value = settings[key];
    if (typeof value === 'string') settings[key] = intern(value);
  }
  for (const entry of component.translations) {
    entry.code = intern(entry.code);
    entry.languageCode = intern(entry.languageCode);
    entry.filename = intern(entry.filename);
    entry.lastAuthor = intern(entry.lastAuthor);
  }
}

/** The `license_url` Weblate shows for a license when none is set: the SPDX page of a known license id, else null. */
export function spdxLicenseUrl(license: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9.+-]*$/.test(license) ? `https://spdx.org/licenses/${license}.html` : null;
}

// --- internal ---

/** Keys whose meaning depends on the flavour: the settings of one flavour only, and the inheritable ones. */
const FLAVOUR_KEYS: ReadonlySet<string> = new Set([...FLAVOUR_ONLY_FIELDS.component['2026.8'], ...INHERITABLE_SETTINGS]);
const NONE: readonly string[] = Object.freeze([]);

function givenKeys(d: ComponentFile): readonly string[] {
  const keys = Object.keys(d).filter((key) => FLAVOUR_KEYS.has(key) && (d as Record<string, unknown>)[key] !== undefined);
  return keys.length === 0 ? NONE : keys;
}

function inheritSwitches(d: ComponentFile): Partial<Record<InheritableSetting, boolean>> {
  const switches: Partial<Record<InheritableSetting, boolean>> = {};
  for (const name of INHERITABLE_SETTINGS) {
    const value = (d as Record<string, unknown>)[`inherit_${name}`];
    if (typeof value === 'boolean') switches[name] = value;
  }
  return switches;
}

function componentSettings(d: ComponentFile): ComponentSettings {
  // Built key by key in one order from an empty object, so that every component's settings share one hidden class.
  const settings = {} as Record<string, unknown>;
  const values = d as unknown as Record<string, unknown>;
  for (const [key, fallback] of SETTING_DEFAULTS) {
    const value = values[key];
    settings[key] = value === undefined ? fallback : copyValue(value);
  }
  if (settings.is_glossary) {
    if (d.manage_units === undefined) settings.manage_units = GLOSSARY_FIELD_DEFAULTS.manage_units;
    if (d.new_lang === undefined) settings.new_lang = GLOSSARY_FIELD_DEFAULTS.new_lang;
  }
  return settings as unknown as ComponentSettings;
}

/** Every component setting with its default, in the order a component's settings list them. */
const SETTING_DEFAULTS: readonly [string, unknown][] = Object.entries({ ...COMPONENT_FIELD_DEFAULTS, ...COMPONENT_FIELD_DEFAULTS_2026 });

/** A value of the file, its strings detached (lists and maps of parameters too). */
function copyValue(value: unknown): unknown {
  if (typeof value === 'string') return detach(value);
  if (Array.isArray(value)) return value.map(copyValue);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [detach(k), copyValue(v)]));
  return value;
}

function prepareTranslation(component: string, code: string, entry: TranslationEntry, source: PreparedComponent['source']): PreparedTranslation {
  // All fields in one literal, in one order: every Counters object shares one compact layout.
  const counters: Counters = {
    total: entry.total ?? source.total,
    total_words: entry.total_words ?? source.total_words,
    total_chars: entry.total_chars ?? source.total_chars,
    translated: entry.translated ?? 0,
    translated_words: entry.translated_words ?? 0,
    translated_chars: entry.translated_chars ?? 0,
    fuzzy: entry.fuzzy ?? 0,
    fuzzy_words: entry.fuzzy_words ?? 0,
    fuzzy_chars: entry.fuzzy_chars ?? 0,
    failing_checks: entry.failing_checks ?? 0,
    failing_checks_words: entry.failing_checks_words ?? 0,
    approved: entry.approved ?? 0,
    approved_words: entry.approved_words ?? 0,
    approved_chars: entry.approved_chars ?? 0,
    readonly: entry.readonly ?? 0,
    readonly_words: entry.readonly_words ?? 0,
    readonly_chars: entry.readonly_chars ?? 0,
    have_suggestion: entry.have_suggestion ?? 0,
    have_comment: entry.have_comment ?? 0,
    recent_changes: entry.recent_changes ?? 0,
    last_change: entry.last_change ? timestampOf(entry.last_change) : null,
  };
  return translationEntry({
    code, id: entry.id ?? derivedId('translation', `${component}/${code}`), languageCode: detach(entry.language_code), filename: detach(entry.filename),
    revision: detach(entry.revision ?? ''), counters, lastAuthor: detach(entry.last_author ?? null),
  });
}

function timestampOf(text: string): Timestamp {
  const parsed = parseTimestamp(text);
  if (!parsed.ok) internalError(`timestamp ${JSON.stringify(text)} passed the file checks but does not parse`);
  return parsed.value;
}
