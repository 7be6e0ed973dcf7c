/**
 * One copy of each text that many objects of a model repeat: Weblate's
 * message templates and license URLs in every component's settings, the file
 * names, language codes and authors of translations. Files checked in threads
 * and a decoded build cache arrive as copies (a structured clone or a parse
 * shares no string), so a model of a million translations would otherwise hold
 * the same texts hundreds of thousands of times. Texts met once or rarely
 * (times of change) are not worth a table entry and are not passed; a table
 * of one component's revisions is (its translations mostly show one).
 */
import { COMPONENT_FIELD_DEFAULTS, COMPONENT_FIELD_DEFAULTS_2026 } from './defaults.ts';
import type { ComponentSettings, Inherited, Language } from './types.ts';

export type Intern = <T extends string | null | undefined>(text: T) => T;

/** A table of texts for one model (or one patch of it); it goes when the caller lets it go. */
export function createIntern(): Intern {
  const texts = new Map<string, string>();
  return <T extends string | null | undefined>(text: T): T => {
    if (typeof text !== 'string') return text;
    const kept = texts.get(text);
    if (kept !== undefined) return kept as T;
    texts.set(text, text);
    return text;
  };
}

/** A value of settings with its texts interned, in lists and maps of parameters too. */
function internValue(value: unknown, intern: Intern): unknown {
  if (typeof value === 'string') return intern(value);
  if (Array.isArray(value)) return value.map((item) => internValue(item, intern));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [intern(k), internValue(v, intern)]),
    );
  return value;
}

/** Every component setting's default, both flavours': the layout every component's settings are made in. */
const SETTINGS_LAYOUT: Readonly<Record<string, unknown>> = {
  ...COMPONENT_FIELD_DEFAULTS,
  ...COMPONENT_FIELD_DEFAULTS_2026,
};

/**
 * A component's settings (those given; the defaults for the rest) made in one
 * layout, so that every component's share one hidden class (objects cloned from
 * a thread each get their own), with a default's own value wherever the value
 * equals it and every other text interned.
 */
export function internSettings(
  given: Partial<ComponentSettings>,
  intern: Intern,
): ComponentSettings {
  const settings: Record<string, unknown> = { ...SETTINGS_LAYOUT };
  const values = given as Record<string, unknown>;
  for (const key in settings) {
    const value = values[key];
    if (value !== undefined && !isDefault(value, settings[key]))
      settings[key] = internValue(value, intern);
  }
  return settings as unknown as ComponentSettings;
}

/** Whether a setting's value equals its default: the same scalar, a list of the same items, a map of the same entries. */
export function isDefault(value: unknown, fallback: unknown): boolean {
  if (value === fallback) return true;
  if (Array.isArray(value))
    return (
      Array.isArray(fallback) &&
      value.length === fallback.length &&
      value.every((item, i) => item === fallback[i])
    );
  if (value === null || typeof value !== 'object') return false;
  if (fallback === null || typeof fallback !== 'object' || Array.isArray(fallback)) return false;
  const [a, b] = [value as Record<string, unknown>, fallback as Record<string, unknown>];
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * One object for each distinct value of components' inheritable settings: most components of an
 * instance inherit the same, and each value holds every message template twice (own and in effect).
 */
export function createInheritedTable(): (inherited: Inherited) => Inherited {
  const table = new Map<string, Inherited>();
  return (inherited) => {
    const key = inheritedKey(inherited);
    const kept = table.get(key);
    if (kept !== undefined) return kept;
    table.set(key, inherited);
    return inherited;
  };
}

/** What tells two values of inheritable settings apart (a language by its code: one object per code in a model). */
export function inheritedKey(inherited: Inherited): string {
  return JSON.stringify(inherited, (name, value: unknown) =>
    name === 'secondary_language' && value ? (value as Language).code : value,
  );
}
