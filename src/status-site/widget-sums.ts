/**
 * What a project's badges and charts count, for the images and for the pages that describe them:
 * the project's sums, or from 5.11 the sums without its glossaries.
 */
import type { Aggregates } from '../model/aggregates.ts';
import { hasTrait } from '../model/releases.ts';
import { addCounters, emptyCounters, type Counters } from '../model/statistics.ts';
import type { Language, Project, Settings } from '../model/types.ts';

/** A project's sums per language as its badges and charts count them. */
export function widgetSums(
  settings: Settings,
  aggregates: Aggregates,
  project: Project,
): ReadonlyMap<Language, Counters> {
  if (!hasTrait(settings.weblateVersion, 'glossaryFreeWidgets'))
    return aggregates.projectLanguages(project);
  const memo = glossaryFreeSums.get(aggregates) ?? new Map<Project, Map<Language, Counters>>();
  glossaryFreeSums.set(aggregates, memo);
  const known = memo.get(project);
  if (known) return known;
  const sums = new Map<Language, Counters>();
  memo.set(project, sums);
  for (const component of project.components) {
    if (component.settings.is_glossary) continue;
    for (const translation of component.translations) {
      const sum = sums.get(translation.language) ?? emptyCounters();
      sums.set(translation.language, sum);
      addCounters(sum, translation.counters);
    }
  }
  return sums;
}

// Kept per build's aggregates, so a patched model never reads stale sums.
const glossaryFreeSums = new WeakMap<Aggregates, Map<Project, Map<Language, Counters>>>();

/** A project's sum as its badge counts it. */
export function widgetTotal(
  settings: Settings,
  aggregates: Aggregates,
  project: Project,
): Counters {
  if (!hasTrait(settings.weblateVersion, 'glossaryFreeWidgets')) return aggregates.project(project);
  const total = emptyCounters();
  for (const counters of widgetSums(settings, aggregates, project).values())
    addCounters(total, counters);
  return total;
}
