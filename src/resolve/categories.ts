/**
 * Categories (2026.8): `projects/<p>/categories/<slug>.yaml`, each maybe
 * inside another of its project (`parent`). Resolved into the model with
 * their place (the slugs from the top), their settings inherited from the
 * parent or the project, and every error at its file and field: a category
 * in the 4 flavour, a parent that does not exist, a loop of parents, nesting
 * deeper than Weblate's CATEGORY_DEPTH, two slugs that differ only in case.
 */
import { derivedId } from '../model/ids.ts';
import type { WeblateVersion } from '../model/defaults.ts';
import type { Category, Project } from '../model/types.ts';
import { quote } from '../content/describe.ts';
import type { CheckedFile } from '../content/files.ts';
import type { Problem } from '../content/problems.ts';
import { slugExpectation } from '../content/schema.ts';
import { flavourMessage } from './flavour.ts';
import { checkCheckFlags, inheritableInput, inheritSettings } from './inherit.ts';
import type { LanguageResolver } from './languages.ts';

/** Weblate nests categories at most three deep (trans/defines.py CATEGORY_DEPTH). */
export const CATEGORY_DEPTH = 3;

/** Every category of the content, set into its project's `categories`; also returned by id. */
export function resolveCategories(
  files: readonly CheckedFile<'category'>[],
  projects: ReadonlyMap<string, Project>,
  languages: LanguageResolver,
  version: WeblateVersion,
  problems: Problem[],
): Category[] {
  if (version === '4') {
    for (const checked of files) {
      problems.push({
        file: checked.file,
        path: [],
        message: flavourMessage(version, 'a category, which Weblate 4.x does not have'),
      });
    }
    return [];
  }
  const byProject = new Map<string, CheckedFile<'category'>[]>();
  for (const checked of files) {
    if (!checkCategorySlug(checked, problems)) continue;
    const own = byProject.get(checked.place.project);
    if (own) own.push(checked);
    else byProject.set(checked.place.project, [checked]);
  }
  const categories: Category[] = [];
  for (const [slug, own] of byProject) {
    const project = projects.get(slug);
    if (project) categories.push(...resolveProjectCategories(own, project, languages, problems)); // else: no project.yaml, reported
  }
  return categories.sort((a, b) => a.id - b.id);
}

// --- internal ---

function checkCategorySlug(checked: CheckedFile<'category'>, problems: Problem[]): boolean {
  const slug = checked.place.category;
  const expectation = slugExpectation(slug);
  if (expectation === null) return true;
  problems.push({
    file: checked.file,
    path: [],
    message: `${expectation} as the category file name (got ${quote(slug)})`,
  });
  return false;
}

/** A project's categories, parents before children, each set into `project.categories` (by id). */
function resolveProjectCategories(
  files: readonly CheckedFile<'category'>[],
  project: Project,
  languages: LanguageResolver,
  problems: Problem[],
): Category[] {
  const bySlug = uniqueSlugs(files, problems);
  const chains = new Map<CheckedFile<'category'>, CheckedFile<'category'>[]>();
  for (const checked of bySlug.values()) {
    const chain = parentChain(checked, bySlug, problems);
    if (chain) chains.set(checked, chain);
  }
  const made = new Map<CheckedFile<'category'>, Category>();
  const make = (checked: CheckedFile<'category'>): Category => {
    const known = made.get(checked);
    if (known) return known;
    const chain = chains.get(checked)!;
    const parent = chain.length > 1 ? make(chain.at(-2)!) : null;
    const category = makeCategory(checked, project, parent, languages, problems);
    made.set(checked, category);
    return category;
  };
  for (const checked of chains.keys()) make(checked);
  project.categories = [...made.values()].sort((a, b) => a.id - b.id);
  return project.categories;
}

/** The categories by slug; two files whose slugs differ only in letter case name one category (reported at both). */
function uniqueSlugs(
  files: readonly CheckedFile<'category'>[],
  problems: Problem[],
): Map<string, CheckedFile<'category'>> {
  const byFolded = new Map<string, CheckedFile<'category'>>();
  const bySlug = new Map<string, CheckedFile<'category'>>();
  for (const checked of files) {
    const slug = checked.place.category;
    const other = byFolded.get(slug.toLowerCase());
    if (other) {
      const message = (a: CheckedFile<'category'>, b: CheckedFile<'category'>) =>
        `expected one category per slug in a project (got ${quote(a.place.category)} and ${quote(b.place.category)} in ${b.file}, ` +
        'one slug in Weblate, which ignores letter case)';
      problems.push({ file: checked.file, path: [], message: message(checked, other) });
      problems.push({ file: other.file, path: [], message: message(other, checked) });
      bySlug.delete(other.place.category);
      continue;
    }
    byFolded.set(slug.toLowerCase(), checked);
    bySlug.set(slug, checked);
  }
  return bySlug;
}

/**
 * The categories from the top down to `checked`, or null (reported) when a
 * parent is missing, the parents loop, or the nesting is too deep.
 */
function parentChain(
  checked: CheckedFile<'category'>,
  bySlug: ReadonlyMap<string, CheckedFile<'category'>>,
  problems: Problem[],
): CheckedFile<'category'>[] | null {
  const chain = [checked];
  for (let current = checked; current.data.parent !== undefined;) {
    const parent = bySlug.get(current.data.parent);
    if (!parent) {
      // A missing parent further up is reported at the category that names it.
      if (current === checked) {
        const slug = current.data.parent;
        problems.push({
          file: checked.file,
          path: ['parent'],
          message: `expected the slug of a category of the project (got ${quote(slug)})`,
        });
      }
      return null;
    }
    if (chain.includes(parent)) {
      const upward = [...chain].reverse();
      const loop = [...upward.slice(upward.indexOf(parent)), parent]
        .map((c) => c.place.category)
        .join(' → ');
      problems.push({
        file: checked.file,
        path: ['parent'],
        message: `expected parents that lead up to the project (got the loop ${loop})`,
      });
      return null;
    }
    chain.unshift(parent);
    current = parent;
  }
  if (chain.length > CATEGORY_DEPTH) {
    const path = chain.map((c) => c.place.category).join('/');
    problems.push({
      file: checked.file,
      path: ['parent'],
      message: `expected categories nested at most ${CATEGORY_DEPTH} deep, as Weblate allows (got ${quote(path)})`,
    });
    return null;
  }
  return chain;
}

function makeCategory(
  checked: CheckedFile<'category'>,
  project: Project,
  parent: Category | null,
  languages: LanguageResolver,
  problems: Problem[],
): Category {
  const d = checked.data;
  const slug = checked.place.category;
  const path = [...(parent?.path ?? []), slug];
  checkCheckFlags(d.check_flags, checked.file, problems);
  return {
    id: d.id ?? derivedId('category', `${project.slug}/${slug}`),
    slug,
    name: d.name,
    project,
    parent,
    path,
    inherited: inheritSettings(
      inheritableInput(d, checked.file, languages, problems),
      parent?.inherited ?? project.inherited,
    ),
    file: checked.file,
  };
}
