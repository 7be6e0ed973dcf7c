/**
 * Aggregated counters: per project, per language across
 * the instance, per language within a project, and (2026.8) per category,
 * over the components inside it and inside its categories. Sums are taken counter by
 * counter over translations, source translations included; percentages are
 * recomputed from the sums later, never averaged.
 */
import { addCounters, emptyCounters, type Counters } from './statistics.ts';
import type { Category, Component, Language, Model, Project, Translation } from './types.ts';

export interface Aggregates {
  project(project: Project): Counters;
  language(language: Language): Counters;
  /** Languages with a translation in the project, and their sums there. */
  projectLanguages(project: Project): ReadonlyMap<Language, Counters>;
  category(category: Category): Counters;
  /** A component's sums over its translations, the source one included. */
  component(component: Component): Counters;
}

/**
 * A project's sums kept from one model to the next: a patch gives a project
 * whose components changed a new component list, and leaves the others'
 * lists as they were, so sums keyed by the list stay valid.
 */
export interface AggregateMemo {
  projects: WeakMap<readonly Component[], ProjectSums>;
}

export function createAggregateMemo(): AggregateMemo {
  return { projects: new WeakMap() };
}

/**
 * Sums computed when first asked for: a project's over its own translations,
 * a language's over the projects' sums in it. A rebuild that looks at a few
 * projects and languages sums only those; with a memo kept between models,
 * a project the patch left alone is not summed again.
 */
export function aggregate(model: Model, memo: AggregateMemo = createAggregateMemo()): Aggregates {
  const byLanguage = new Map<Language, Counters>();
  const projectSums = (project: Project): ProjectSums => {
    let sums = memo.projects.get(project.components);
    if (!sums) memo.projects.set(project.components, (sums = sumProject(project)));
    return sums;
  };
  // Every translation belongs to one project's own components: a language's sums are its sums in each project, added.
  const languageSum = (language: Language): Counters => {
    let sum = byLanguage.get(language);
    if (sum) return sum;
    sum = emptyCounters();
    for (const project of model.projects) {
      const inProject = projectSums(project).languages.get(language);
      if (inProject) addCounters(sum, inProject);
    }
    byLanguage.set(language, sum);
    return sum;
  };
  const byCategory = new Map<Category, Counters>();
  const categorySum = (category: Category): Counters => {
    let sum = byCategory.get(category);
    if (!sum) byCategory.set(category, (sum = sumCategory(category)));
    return sum;
  };
  const byComponent = new Map<Component, Counters>();
  const componentSum = (component: Component): Counters => {
    let sum = byComponent.get(component);
    if (sum) return sum;
    sum = emptyCounters();
    for (const translation of component.translations) addCounters(sum, translation.counters);
    byComponent.set(component, sum);
    return sum;
  };
  return {
    project: (project) => projectSums(project).total,
    language: languageSum,
    projectLanguages: (project) => projectSums(project).languages,
    category: categorySum,
    component: componentSum,
  };
}

/** A project's sums: over all its translations, and per language. */
export interface ProjectSums {
  total: Counters;
  languages: Map<Language, Counters>;
}

// --- internal ---

function sumProject(project: Project): ProjectSums {
  const total = emptyCounters();
  const languages = new Map<Language, Counters>();
  for (const component of project.components) {
    for (const translation of component.translations) {
      addCounters(total, translation.counters);
      let sum = languages.get(translation.language);
      if (!sum) languages.set(translation.language, (sum = emptyCounters()));
      addCounters(sum, translation.counters);
    }
  }
  return { total, languages };
}

/** A category's sums: every translation of the components inside it, at any depth (CategoryStats sums its subcategories). */
function sumCategory(category: Category): Counters {
  const sum = emptyCounters();
  for (const component of category.project.components) {
    if (!isInside(component.category, category)) continue;
    for (const translation of component.translations) addCounters(sum, translation.counters);
  }
  return sum;
}

function isInside(inner: Category | null, outer: Category): boolean {
  for (let current = inner; current; current = current.parent) if (current === outer) return true;
  return false;
}

/** Whether percentages of this translation count reviews: the source uses source_review, others translation_review. */
export function translationHasReview(translation: Translation): boolean {
  const project = translation.component.project;
  return translation.isSource ? project.source_review : project.translation_review;
}

/** `has_review` of a project (and of its components and project-language entries). */
export function projectHasReview(project: Project): boolean {
  return project.source_review || project.translation_review;
}
