/**
 * Aggregated counters (spec section 3.4): per project, per language across
 * the instance, and per language within a project. Sums are taken counter by
 * counter over translations, source translations included; percentages are
 * recomputed from the sums later, never averaged.
 */
import { addCounters, emptyCounters, type Counters } from './statistics.ts';
import type { Language, Model, Project } from './types.ts';

export interface Aggregates {
  project(project: Project): Counters;
  language(language: Language): Counters;
  /** Languages with a translation in the project, and their sums there. */
  projectLanguages(project: Project): ReadonlyMap<Language, Counters>;
}

export function aggregate(model: Model): Aggregates {
  const byProject = new Map<Project, Counters>();
  const byLanguage = new Map<Language, Counters>();
  const byProjectLanguage = new Map<Project, Map<Language, Counters>>();
  for (const project of model.projects) {
    byProject.set(project, emptyCounters());
    byProjectLanguage.set(project, new Map());
  }
  for (const language of model.languages) byLanguage.set(language, emptyCounters());
  for (const translation of model.translations) {
    const project = translation.component.project;
    addCounters(byProject.get(project)!, translation.counters);
    addCounters(byLanguage.get(translation.language)!, translation.counters);
    const languages = byProjectLanguage.get(project)!;
    let sum = languages.get(translation.language);
    if (!sum) languages.set(translation.language, (sum = emptyCounters()));
    addCounters(sum, translation.counters);
  }
  return {
    project: (project) => byProject.get(project)!,
    language: (language) => byLanguage.get(language)!,
    projectLanguages: (project) => byProjectLanguage.get(project)!,
  };
}

/** `has_review` of a project (and of its components and project-language entries). */
export function projectHasReview(project: Project): boolean {
  return project.source_review || project.translation_review;
}
