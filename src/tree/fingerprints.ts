/**
 * Fingerprints: a number for every input a file's bytes depend on, so a
 * rebuild renders only the groups whose inputs changed. The output format
 * version and the settings every file depends on are part of them; a
 * component's and a translation's are kept between rebuilds of a session.
 */
import type { HostOptions } from '../hosts/index.ts';
import type { Bodies } from '../api/bodies.ts';
import { Hasher, fingerprintText } from '../model/fingerprint.ts';
import { createAggregateMemo, type AggregateMemo } from '../model/aggregates.ts';
import type { Counters } from '../model/statistics.ts';
import type { Category, Component, Language, Model, Project, Translation } from '../model/types.ts';
import { componentSegment } from '../api/urls.ts';

/**
 * Bump when the generator writes different bytes for the same content, so
 * that trees built by an older version are rebuilt rather than trusted.
 * 3: the status site, and CORS in the host files.
 * 4: the status site's pages say what a project is, name the instance, need no style attribute.
 * 5: with the status site, 404.html is its 404 page and api/404.html the API's; hosts answer with them.
 */
const OUTPUT_FORMAT = '5';

/**
 * The fingerprint of the settings every file depends on: the settings, the
 * output format and the host whose files take the root names. A tree built
 * with other settings is rebuilt whole rather than updated in place.
 */
export function settingsFingerprint(model: Model, hosts: HostOptions = {}): number {
  return new Hasher()
    .number(settingsFingerprintOf(model))
    .text(hosts.host ?? '')
    .digest();
}

/**
 * Fingerprints of components and translations, computed once per object.
 * Kept from one rebuild to the next by a snapshot kept open (`kept`: weak
 * maps, so that replaced objects can go); valid because the model's objects
 * are never changed: an object whose inputs change is replaced by a new one.
 * A build that runs once uses plain maps, far cheaper for the garbage
 * collector than weak maps of a hundred thousand translations.
 */
export interface FingerprintCache {
  components: Memo<Component>;
  translations: Memo<Translation>;
  /** Projects' sums, kept as long as a project's component list is (model/aggregates.ts). */
  aggregates: AggregateMemo;
}

interface Memo<K extends object> {
  get(key: K): number | undefined;
  set(key: K, value: number): unknown;
}

export function createFingerprintCache(options: { kept?: boolean } = {}): FingerprintCache {
  const aggregates = createAggregateMemo();
  return options.kept
    ? { components: new WeakMap(), translations: new WeakMap(), aggregates }
    : { components: new Map(), translations: new TranslationMemo(), aggregates };
}

/**
 * Translations' fingerprints kept in an array per component, in the order of its translations:
 * a map entry and a boxed number per translation took some 45 bytes each, 45 MB at a million.
 */
class TranslationMemo implements Memo<Translation> {
  private readonly byComponent = new Map<Component, number[]>();

  get(translation: Translation): number | undefined {
    const values = this.byComponent.get(translation.component);
    const value = values?.[translation.component.translations.indexOf(translation)];
    return value === undefined || Number.isNaN(value) ? undefined : value;
  }

  set(translation: Translation, value: number): void {
    const { component } = translation;
    const index = component.translations.indexOf(translation);
    // One not (or not yet) in its component's list is computed each time it is asked for.
    if (index < 0) return;
    let values = this.byComponent.get(component);
    if (values === undefined) this.byComponent.set(component, (values = []));
    while (values.length < index) values.push(Number.NaN);
    values[index] = value;
  }
}

export interface Fingerprints {
  settings: number;
  language: (language: Language) => number;
  project: (project: Project) => number;
  category: (category: Category) => number;
  component: (component: Component) => number;
  translation: (translation: Translation) => number;
  counters: (counters: Counters) => number;
}

export function createFingerprints(
  model: Model,
  bodies: Bodies,
  cache: FingerprintCache,
): Fingerprints {
  const languages = new Map<Language, number>();
  const projects = new Map<Project, number>();
  const categories = new Map<Category, number>();
  const memo = <K extends object>(map: Memo<K>, key: K, compute: () => number) => {
    let value = map.get(key);
    if (value === undefined) map.set(key, (value = compute()));
    return value;
  };
  const language = (l: Language) =>
    memo(languages, l, () => fingerprintText(bodies.language(l).text()));
  const project = (p: Project) =>
    memo(projects, p, () => fingerprintText(bodies.project(p).text()));
  // A category's body names its parent by id; the web paths below it show the slugs of every category above.
  const category = (c: Category) =>
    memo(categories, c, () =>
      new Hasher()
        .number(fingerprintText(bodies.category(c).text()))
        .text(c.path.join('/'))
        .digest(),
    );
  // A component shows what its file says, its project, its source language, its category (and what it
  // inherits from it), its secondary language and the repository it may share.
  const component = (c: Component) =>
    memo(cache.components, c, () => {
      const h = new Hasher()
        .number(c.contentFingerprint)
        .number(project(c.project))
        .number(language(c.sourceLanguage));
      if (c.category) h.number(category(c.category));
      const secondary = c.inherited.own.secondary_language;
      if (secondary) h.number(language(secondary));
      const linked = c.linkedComponent;
      if (linked) {
        const s = linked.settings;
        h.text(s.repo).text(s.branch).text(s.push).text(s.push_branch);
        h.flag(s.push_on_commit)
          .number(s.commit_pending_age)
          .flag(s.auto_lock_error)
          .text(linked.project.slug)
          .text(componentSegment(linked));
      }
      return h.digest();
    });
  // A translation shows what the content says of it, its component and its language; the rest is derived from these.
  const translation = (t: Translation) =>
    memo(cache.translations, t, () =>
      new Hasher()
        .number(t.contentFingerprint)
        .number(component(t.component))
        .number(language(t.language))
        .digest(),
    );
  return {
    settings: settingsFingerprintOf(model),
    language,
    project,
    category,
    component,
    translation,
    counters: (c) => hashCounters(new Hasher(), c).digest(),
  };
}

// --- internal ---

function settingsFingerprintOf(model: Model): number {
  const { settings } = model;
  const h = new Hasher()
    .text(OUTPUT_FORMAT)
    .text(settings.baseUrl)
    .text(settings.webUrl)
    .number(settings.pageSize)
    .text(settings.pagination)
    .text(settings.weblateVersion)
    .flag(settings.pages)
    .text(settings.editUrl ?? '')
    .text(settings.title ?? '');
  // Only `all` is hashed, so trees built before the setting keep their fingerprints.
  if (settings.pngWidgets === 'all') h.text('png widgets: all');
  return h.digest();
}

function hashCounters(h: Hasher, c: Counters): Hasher {
  h.number(c.total)
    .number(c.total_words)
    .number(c.total_chars)
    .number(c.translated)
    .number(c.translated_words)
    .number(c.translated_chars)
    .number(c.fuzzy)
    .number(c.fuzzy_words)
    .number(c.fuzzy_chars)
    .number(c.failing_checks)
    .number(c.failing_checks_words)
    .number(c.approved)
    .number(c.approved_words)
    .number(c.approved_chars)
    .number(c.readonly)
    .number(c.readonly_words)
    .number(c.readonly_chars)
    .number(c.have_suggestion)
    .number(c.have_comment)
    .number(c.recent_changes);
  return h.flag(c.last_change === null).text(c.last_change ?? '');
}
