/**
 * Pulled content checked as the build checks it (resolve/open.ts), in parts,
 * so that the check's memory does not grow with the instance: the files
 * other than components are checked once and kept, the components a few
 * thousand at a time (whole projects, whose rules need all their
 * components), each part resolved beside every other file. What spans parts,
 * ids and repository links, is carried in a small form and checked as the
 * parts come. The files may come from anywhere: a full pull checks what it
 * would write before it writes anything.
 */
import { join } from 'node:path';
import type { Catalog } from '../catalog/catalog.ts';
import { checkFile, placeOf, type CheckedFile, type FilePlace } from '../content/files.ts';
import { assembleContent } from '../content/load.ts';
import { pinProblems, type Problem } from '../content/problems.ts';
import type { ContentError } from '../errors.ts';
import type { Component } from '../model/types.ts';
import {
  componentOwner,
  componentPath,
  linkRepository,
  reportIdCollision,
  resolveContent,
  translationOwner,
  type ComponentDraft,
  type DraftTranslation,
} from '../resolve/resolve.ts';

/** A content folder's files, wherever their texts are. */
export interface ContentFiles {
  /** Every file, relative to the content folder with `/`, in code-point order. */
  paths: readonly string[];
  /** A file's text, by its relative path. */
  read: (path: string) => string;
  /** Entries that cannot be content (content/walk.ts), each with why. */
  refused: readonly { path: string; message: string }[];
}

/**
 * Every error the build would find in `files`, named as files of
 * `contentDir`; `partFiles`: how many component files a part holds at least.
 */
export function checkInParts(
  contentDir: string,
  files: ContentFiles,
  catalog: Catalog,
  partFiles = PART_FILES,
): ContentError[] {
  const named = (path: string) => join(contentDir, path);
  const prefix = join(contentDir, '/');
  const readText = (file: string) => files.read(file.slice(prefix.length));
  const sorted = sortFiles(files.paths, partFiles);
  const fileErrors = new Map<string, ContentError[]>();
  const check = (path: string, place: FilePlace) => {
    const result = checkFile(named(path), place, files.read(path));
    if (result.ok) return result.checked as CheckedFile;
    fileErrors.set(path, result.errors);
    return result.salvaged ?? null;
  };
  const frame = sorted.frame.flatMap(({ path, place }) => check(path, place) ?? []);
  const resolveErrors = new ResolveErrors();
  const across = new AcrossParts();
  for (const part of sorted.parts) {
    // The part's component files are held by the content alone, whose resolve lets each go.
    const content = assembleContent(
      [...frame, ...part.flatMap(({ path, place }) => check(path, place) ?? [])],
      sorted.places,
    );
    const own = new Set(part.map(({ path }) => named(path)));
    const resolved = resolveContent(content, {}, catalog, readText, contentDir, {
      onComponents: (drafts) => across.add(drafts),
    });
    if (!resolved.ok) resolveErrors.add(resolved.errors, own);
  }
  const placeErrors = sorted.unplaced.map(({ path, message }) => fileError(named(path), message));
  return [
    ...files.refused.map(({ path, message }) => fileError(named(path), message)),
    ...inOrder(files.paths, fileErrors, placeErrors, named),
    ...resolveErrors.all,
    ...pinProblems(across.finish(), readText),
  ];
}

// --- internal ---

/** Component files resolved at once by default; whole projects go together, so a part may hold more. */
const PART_FILES = 2000;

interface PlacedPath {
  path: string;
  place: FilePlace;
}

/** The files sorted by what the check does with them: the frame, parts of components, the unplaceable. */
function sortFiles(paths: readonly string[], partFiles: number) {
  const frame: PlacedPath[] = [];
  const parts: PlacedPath[][] = [[]];
  const places: FilePlace[] = [];
  const unplaced: { path: string; message: string }[] = [];
  let project: string | null = null;
  for (const path of paths) {
    const placed = placeOf(path);
    if ('ignored' in placed || 'extra' in placed) continue;
    if ('error' in placed) {
      unplaced.push({ path, message: placed.error });
      continue;
    }
    const { place } = placed;
    places.push(place);
    if (place.kind !== 'component') {
      frame.push({ path, place });
      continue;
    }
    const last = parts.at(-1)!;
    if (place.project !== project && last.length >= partFiles) parts.push([]);
    project = place.project;
    parts.at(-1)!.push({ path, place });
  }
  return { frame, parts, places, unplaced };
}

function fileError(file: string, message: string): ContentError {
  return { file, line: 1, column: 1, path: '', message };
}

/** The errors of single files in the order of the files, as the build lists them. */
function inOrder(
  paths: readonly string[],
  byPath: ReadonlyMap<string, ContentError[]>,
  unplaced: readonly ContentError[],
  named: (path: string) => string,
): ContentError[] {
  const unplacedByFile = new Map(unplaced.map((error) => [error.file, error]));
  return paths.flatMap((path) => {
    const error = unplacedByFile.get(named(path));
    return error ? [error] : (byPath.get(path) ?? []);
  });
}

/**
 * The errors of the cross-file rules, part after part: those of a part's own
 * component files each time, those of the other files (found again by every
 * part) once.
 */
class ResolveErrors {
  readonly all: ContentError[] = [];
  private readonly seen = new Set<string>();

  add(errors: readonly ContentError[], own: ReadonlySet<string>): void {
    for (const error of errors) {
      if (!own.has(error.file)) {
        const key = `${error.file}:${error.line}:${error.column}:${error.path}:${error.message}`;
        if (this.seen.has(key)) continue;
        this.seen.add(key);
      }
      this.all.push(error);
    }
  }
}

/**
 * What the rules that span every component need of the parts already
 * resolved: each component's and translation's id with who has it, and
 * whether each component links to another's repository; a link to a
 * component of another part is checked at the end.
 */
class AcrossParts {
  private readonly componentIds = new Map<number, ReturnType<typeof componentOwner>>();
  /** A translation's id and the index of its owner in the arrays below (flat: there may be millions). */
  private readonly translationIds = new Map<number, number>();
  private readonly owners: { file: string; project: string; slug: string }[] = [];
  private readonly ownerOf: number[] = [];
  private readonly keys: (string | null)[] = [];
  private readonly codes: string[] = [];
  /** Whether each component resolved so far links to another's repository, by `project/component`. */
  private readonly linked = new Map<string, boolean>();
  private readonly links: { file: string; repo: string; target: string }[] = [];
  private readonly problems: Problem[] = [];

  add(drafts: readonly ComponentDraft[]): void {
    const part = new Set(drafts.map(({ component }) => componentPath(component)));
    const fresh = new Set<string>();
    for (const draft of drafts) {
      this.carryIds(draft, fresh);
      const { repo } = draft.component.settings;
      const target = /^weblate:\/\/(.*)$/.exec(repo)?.[1];
      this.linked.set(componentPath(draft.component), target !== undefined);
      if (target !== undefined && !part.has(target))
        this.links.push({ file: draft.component.file, repo, target });
    }
  }

  /** The problems found across parts, those of links between parts with them. */
  finish(): Problem[] {
    for (const { file, repo, target } of this.links) {
      const linked = this.linked.get(target);
      // Not resolved: its file failed its own checks, reported there, or is missing (found with its part).
      if (linked === undefined) continue;
      // linkRepository() reads only these fields: the rule and its message stay in one place.
      const stand = (file: string, repo: string) => ({ file, settings: { repo } }) as Component;
      const other = stand('', linked ? 'weblate://' : '');
      linkRepository(stand(file, repo), new Map([[target, other]]), this.problems);
    }
    return this.problems;
  }

  /**
   * Reports ids an earlier part gave another object; `fresh` holds the ids
   * this part brought (its own repeats are reported with the part).
   */
  private carryIds({ component, translations }: ComponentDraft, fresh: Set<string>): void {
    const owner = componentOwner(component);
    const first = this.componentIds.get(component.id);
    if (!first) {
      this.componentIds.set(component.id, owner);
      fresh.add(`c${component.id}`);
    } else if (!fresh.has(`c${component.id}`))
      reportIdCollision('component', component.id, first, owner, this.problems);
    const index = this.owners.length;
    this.owners.push({
      file: component.file,
      project: component.project.slug,
      slug: component.slug,
    });
    for (const entry of translations) {
      const id = entry.translation.id;
      const earlier = this.translationIds.get(id);
      if (earlier === undefined) {
        this.translationIds.set(id, this.codes.length);
        this.ownerOf.push(index);
        this.keys.push(entry.key);
        this.codes.push(entry.translation.language.code);
        fresh.add(`t${id}`);
      } else if (!fresh.has(`t${id}`))
        reportIdCollision(
          'translation',
          id,
          this.ownerAt(earlier),
          translationOwner(entry),
          this.problems,
        );
    }
  }

  /** The owner of a translation of an earlier part, as translationOwner() describes it. */
  private ownerAt(at: number) {
    const { file, project, slug } = this.owners[this.ownerOf[at]!]!;
    // translationOwner() reads only these fields.
    const translation = {
      component: { file, slug, project: { slug: project } },
      language: { code: this.codes[at]! },
    } as DraftTranslation['translation'];
    return translationOwner({ translation, key: this.keys[at]! });
  }
}
