/**
 * Aggregated counters (spec section 3.4): per project, per language across
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
 * Sums computed when first asked for: a project's over its own translations,
 * a language's over the translations in it. A rebuild that looks at a few
 * projects and languages sums only those.
 */
export function aggregate(model: Model): Aggregates {
  const byProject = new Map<Project, ProjectSums>();
  const byLanguage = new Map<Language, Counters>();
  let inLanguage: Map<Language, Translation[]> | null = null;
  const projectSums = (project: Project): ProjectSums => {
    let sums = byProject.get(project);
    if (!sums) byProject.set(project, (sums = sumProject(project)));
    return sums;
  };
  const languageSum = (language: Language): Counters => {
    let sum = byLanguage.get(language);
    if (sum) return sum;
    inLanguage ??= groupByLanguage(model.translations);
    sum = emptyCounters();
    for (const translation of inLanguage.get(language) ?? []) addCounters(sum, translation.counters);
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

// --- internal ---

interface ProjectSums {
  total: Counters;
  languages: Map<Language, Counters>;
}

function groupByLanguage(translations: readonly Translation[]): Map<Language, Translation[]> {
  const groups = new Map<Language, Translation[]>();
  for (const translation of translations) {
    const group = groups.get(translation.language);
    if (group) group.push(translation);
    else groups.set(translation.language, [translation]);
  }
  return groups;
}

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
