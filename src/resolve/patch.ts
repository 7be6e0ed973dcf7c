/**
 * The fast path of an update that changes only component files (what most
 * writes do: a translation deleted, counters changed): the model is patched
 * for those components, every other object kept, and the cross-file rules
 * are checked for what the change can break. Anything else (a language,
 * project or site file, a component shared through `weblate://` whose
 * repository changes) is left to the full validation: `fallback`.
 */
import { hasTrait, shapesOf } from '../model/releases.ts';
import type { ContentError } from '../errors.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Component, Language, Model, Project, Translation } from '../model/types.ts';
import type { CheckedFile } from '../content/files.ts';
import { checkLanguageIds, languageResolver } from './languages.ts';
import { createIntern } from '../model/intern.ts';
import { sharePreparedTexts } from '../content/prepare.ts';
import { createTranslationPacker } from '../model/packed-translations.ts';
import {
  checkCaseCollisions,
  checkPluralIds,
  checkSharedPaths,
  componentOwner,
  componentPath,
  linkRepository,
  publishedLanguages,
  reportIdCollision,
  resolveComponent,
  translationOwner,
  type ComponentContext,
  type ComponentDraft,
  type DraftTranslation,
} from './resolve.ts';
import { pinProblems, type Problem } from '../content/problems.ts';

/** A component file's new state: its checked contents, or null when it was deleted. */
export interface ComponentPatch {
  project: string;
  component: string;
  checked: CheckedFile<'component'> | null;
}

/** What a patch touched: enough to tell which file groups may have changed. */
export interface PatchScope {
  /** Components added or changed (their new objects). */
  components: Component[];
  /** Components removed or replaced (their old objects). */
  replaced: Component[];
  /** Projects whose components or sums may have changed. */
  projects: Set<Project>;
  /** Languages whose sums may have changed (of translations before and after). */
  languages: Set<Language>;
}

type PatchResult =
  | { ok: true; model: Model; scope: PatchScope }
  | { ok: false; errors: ContentError[] }
  | { ok: 'fallback' };

export function patchComponents(
  model: Model,
  patches: readonly ComponentPatch[],
  catalog: Catalog,
  readText: (file: string) => string,
): PatchResult {
  const projects = new Map(model.projects.map((p) => [p.slug, p]));
  const byPath = new Map(model.components.map((c) => [componentPath(c), c]));
  const version = model.settings.weblateVersion;
  const resolver = languageResolver(
    new Map(model.languages.map((l) => [l.code, l])),
    catalog,
    version,
  );
  const problems: Problem[] = [];
  const intern = createIntern();
  const context: ComponentContext = {
    projects,
    languages: resolver,
    version: shapesOf(version),
    problems,
    intern,
    pack: createTranslationPacker(),
  };
  const replaced: Component[] = [];
  const drafts: ComponentDraft[] = [];
  for (const patch of patches) {
    const project = projects.get(patch.project);
    if (!project) return { ok: 'fallback' };
    const old = byPath.get(`${patch.project}/${patch.component}`);
    if (old) replaced.push(old);
    if (!patch.checked) continue;
    // Checked on the main thread one by one, not by the load, which shares the texts as it checks.
    sharePreparedTexts(patch.checked.data, intern);
    const draft = resolveComponent(patch.checked, project, context);
    if (draft) drafts.push(draft);
  }
  if (!keepsSharedRepositories(model, replaced, drafts)) return { ok: 'fallback' };

  const gone = new Set(replaced);
  const newPaths = new Map(byPath);
  for (const old of replaced) newPaths.delete(componentPath(old));
  for (const { component } of drafts) newPaths.set(componentPath(component), component);
  for (const { component } of drafts) linkRepository(component, newPaths, problems);
  checkLinkers(model, replaced, newPaths, problems);
  checkNewSlugs(model, gone, drafts, problems);
  for (const draft of drafts) checkSharedPaths([draft], draft.component.project, problems);
  checkIds(model, gone, drafts, problems);
  const translations = mergeTranslations(model.translations, gone, drafts);
  const languages = publishedLanguages(
    model.languages.filter((l) => l.file !== null),
    translations,
  );
  checkPluralIds(languages, problems);
  if (hasTrait(version, 'shapes5')) checkLanguageIds(languages, problems);
  if (problems.length > 0) return { ok: false, errors: pinProblems(problems, readText) };

  return { ok: true, ...applyPatch(model, replaced, drafts, translations, languages, newPaths) };
}

// --- internal ---

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

/**
 * A component others share (`weblate://`) shows its repository in theirs; a
 * change to it goes through the full validation and rebuild.
 */
function keepsSharedRepositories(
  model: Model,
  replaced: Component[],
  drafts: ComponentDraft[],
): boolean {
  for (const old of replaced) {
    if (!model.components.some((c) => c.linkedComponent === old)) continue;
    const next = drafts.find((d) => componentPath(d.component) === componentPath(old))?.component;
    if (!next) continue; // removed: checkLinkers reports the broken links
    const [a, b] = [old.settings, next.settings];
    if (
      a.repo !== b.repo ||
      a.branch !== b.branch ||
      a.push !== b.push ||
      a.push_branch !== b.push_branch
    )
      return false;
  }
  return true;
}

/** Components that share a removed component's repository, or one that became a link itself, now link to nothing valid. */
function checkLinkers(
  model: Model,
  replaced: Component[],
  newPaths: Map<string, Component>,
  problems: Problem[],
): void {
  const replacedSet = new Set(replaced);
  for (const component of model.components) {
    if (
      replacedSet.has(component) ||
      !component.linkedComponent ||
      !replacedSet.has(component.linkedComponent)
    )
      continue;
    const check: Problem[] = [];
    linkRepository({ ...component, linkedComponent: null }, newPaths, check);
    problems.push(...check);
  }
}

function checkNewSlugs(
  model: Model,
  gone: Set<Component>,
  drafts: ComponentDraft[],
  problems: Problem[],
): void {
  for (const { component } of drafts) {
    const siblings = model.components.filter(
      (c) => c.project === component.project && !gone.has(c) && c !== component,
    );
    const others = drafts
      .filter((d) => d.component.project === component.project)
      .map((d) => d.component);
    const items = [...siblings, ...others].map((c) => ({ key: c.slug, file: c.file }));
    checkCaseCollisions(items, 'component slug', problems);
  }
}

/**
 * The new components' ids and their translations' against everyone else's:
 * one pass over the instance looking for the few new ids, owners described
 * only on a collision.
 */
function checkIds(
  model: Model,
  gone: Set<Component>,
  drafts: ComponentDraft[],
  problems: Problem[],
): void {
  // Ids the replaced components held were unique: a patch that only keeps or drops ids needs no search.
  const heldComponents = new Set<number>();
  const heldTranslations = new Set<number>();
  for (const component of gone) {
    heldComponents.add(component.id);
    for (const t of component.translations) heldTranslations.add(t.id);
  }
  const keepsIds = drafts.every(
    (d) =>
      heldComponents.has(d.component.id) &&
      d.translations.every((e) => heldTranslations.has(e.translation.id)),
  );
  const distinct =
    new Set(drafts.flatMap((d) => d.translations.map((e) => e.translation.id))).size ===
      drafts.reduce((n, d) => n + d.translations.length, 0) &&
    new Set(drafts.map((d) => d.component.id)).size === drafts.length;
  if (keepsIds && distinct) return;
  const newComponents = new Map<number, Component>();
  const newTranslations = new Map<number, DraftTranslation>();
  for (const draft of drafts) {
    const other = newComponents.get(draft.component.id);
    if (other)
      reportIdCollision(
        'component',
        draft.component.id,
        componentOwner(other),
        componentOwner(draft.component),
        problems,
      );
    else newComponents.set(draft.component.id, draft.component);
    for (const entry of draft.translations) {
      const first = newTranslations.get(entry.translation.id);
      if (first)
        reportIdCollision(
          'translation',
          entry.translation.id,
          translationOwner(first),
          translationOwner(entry),
          problems,
        );
      else newTranslations.set(entry.translation.id, entry);
    }
  }
  for (const c of model.components) {
    const other = gone.has(c) ? undefined : newComponents.get(c.id);
    if (other)
      reportIdCollision('component', c.id, componentOwner(c), componentOwner(other), problems);
  }
  for (const t of model.translations) {
    const entry = gone.has(t.component) ? undefined : newTranslations.get(t.id);
    if (entry)
      reportIdCollision(
        'translation',
        t.id,
        translationOwner({ translation: t, key: t.language.code }),
        translationOwner(entry),
        problems,
      );
  }
}

/** The translations by id, without those of the replaced components and with those of the new ones. */
function mergeTranslations(
  current: readonly Translation[],
  gone: Set<Component>,
  drafts: ComponentDraft[],
): Translation[] {
  const added = drafts.flatMap((d) => d.translations.map((t) => t.translation)).sort(byId);
  const merged: Translation[] = [];
  let next = 0;
  for (const translation of current) {
    if (gone.has(translation.component)) continue;
    while (next < added.length && added[next]!.id < translation.id) merged.push(added[next++]!);
    merged.push(translation);
  }
  while (next < added.length) merged.push(added[next++]!);
  return merged;
}

/**
 * The patched model. Objects the patch does not replace are shared with the
 * model before; the projects' component lists and the links of components
 * sharing a replaced one's repository are updated in place.
 */
function applyPatch(
  model: Model,
  replaced: Component[],
  drafts: ComponentDraft[],
  translations: Translation[],
  languages: Language[],
  newPaths: Map<string, Component>,
): { model: Model; scope: PatchScope } {
  const gone = new Set(replaced);
  const added = drafts.map((d) => d.component);
  for (const draft of drafts) {
    draft.component.translations = draft.translations.map((t) => t.translation).sort(byId);
    draft.component.links.sort(byId);
  }
  const components = model.components
    .filter((c) => !gone.has(c))
    .concat(added)
    .sort(byId);
  const projects = new Set([...replaced, ...added].map((c) => c.project));
  for (const project of projects)
    project.components = components.filter((c) => c.project === project);
  for (const component of components) {
    const linked = component.linkedComponent;
    if (linked && gone.has(linked))
      component.linkedComponent = newPaths.get(componentPath(linked)) ?? null;
  }
  // A language's sums change only where one of its translations was added, removed or changed.
  const touched = new Set<Language>();
  const before = new Map<string, Translation>();
  for (const old of replaced)
    for (const t of old.translations) before.set(`${componentPath(old)}/${t.language.code}`, t);
  for (const component of added) {
    for (const t of component.translations) {
      const key = `${componentPath(component)}/${t.language.code}`;
      const old = before.get(key);
      before.delete(key);
      if (!old || old.contentFingerprint !== t.contentFingerprint || old.language !== t.language)
        touched.add(t.language);
    }
  }
  for (const gone of before.values()) touched.add(gone.language);
  return {
    model: {
      settings: model.settings,
      languages,
      projects: model.projects,
      categories: model.categories,
      components,
      translations,
      ...(model.extras ? { extras: model.extras } : {}),
    },
    scope: { components: added, replaced, projects, languages: touched },
  };
}
