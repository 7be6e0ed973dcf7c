/**
 * Reads a content folder: finds its YAML files, classifies each by its place
 * and checks it (files.ts; in threads for a large folder, check-pool.ts), and
 * keeps each file's signature (signatures.ts): its size and time as listed,
 * before it was read, and the hash of the text checked. With check-pool.ts,
 * the only modules of the content pipeline that touch the disk.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentError } from '../errors.ts';
import { compareStrings } from '../errors.ts';
import { checkFiles, type CheckJob, type CheckOptions } from './check-pool.ts';
import { placeOf, type CheckedFile, type FilePlace } from './files.ts';
import type { ExtraFile } from '../model/types.ts';
import { hashBytes, type FileSignature } from './signatures.ts';
import { listContentFiles } from './walk.ts';

export interface LoadedContent {
  site: CheckedFile<'site'> | null;
  languages: CheckedFile<'language'>[];
  projects: CheckedFile<'project'>[];
  categories: CheckedFile<'category'>[];
  components: CheckedFile<'component'>[];
  /** Every project folder (named by a project.yaml or a component file in it). */
  projectFolders: string[];
  /** Project folders that have a project.yaml, valid or not. */
  projectFiles: string[];
  /** Whether there is a site.yaml, valid or not (an invalid one reports its own errors). */
  siteFile: boolean;
  /** Every component file present, valid or not, as `project/component`: a link to one that failed its checks is not also an error. */
  componentFiles: ReadonlySet<string>;
  /** Every category file present, valid or not, as `project/category`. */
  categoryFiles: ReadonlySet<string>;
}

interface LoadResult {
  content: LoadedContent;
  /** Every valid file by its path relative to the content folder (with `/`). */
  files: Map<string, CheckedFile>;
  /** The signature of every content file read, valid or not, by the same path. */
  signatures: Map<string, FileSignature>;
  errors: ContentError[];
  /** What valid files most likely left out by mistake (content/rules.ts#componentWarnings). */
  warnings: ContentError[];
  /** How many files were checked in worker threads (check-pool.ts). */
  checkedInThreads: number;
  /** The files of `extra/`, read as bytes, by path. */
  extras: ExtraFile[];
}

/** Reads and checks every content file under `contentDir`, in a fixed (sorted) order. */
export async function loadContent(contentDir: string, options: CheckOptions = {}): Promise<LoadResult> {
  const listing = await statContentFiles(contentDir);
  const errors: ContentError[] = listing.refused.map(({ path, message }) => ({ file: join(contentDir, path), line: 1, column: 1, path: '', message }));
  const jobs: (CheckJob & ListedFile)[] = [];
  const extras: ExtraFile[] = [];
  const signatures = new Map<string, FileSignature>();
  for (const listed of listing.files) {
    const file = join(contentDir, listed.relativePath);
    const result = placeOf(listed.relativePath);
    if ('ignored' in result) continue;
    if ('error' in result) errors.push({ file, line: 1, column: 1, path: '', message: result.error });
    else if ('extra' in result) extras.push(readExtra(listed, file, result.extra, signatures));
    else jobs.push({ ...listed, file, place: result.place });
  }
  const { results, inThreads } = await checkFiles(jobs, options);
  const files = new Map<string, CheckedFile>();
  // A file with errors still takes part in the cross-file rules when its fields at fault could be left out.
  const salvaged: CheckedFile[] = [];
  const warnings: ContentError[] = [];
  results.forEach(({ result, hash }, index) => {
    const job = jobs[index]!;
    signatures.set(job.relativePath, { size: job.size, mtimeMs: job.mtimeMs, hash });
    if (!result.ok) {
      errors.push(...result.errors);
      if (result.salvaged) salvaged.push(result.salvaged);
    } else {
      files.set(job.relativePath, result.checked);
      warnings.push(...(result.warnings ?? []));
    }
  });
  const places = jobs.map((job) => job.place);
  const content = assembleContent([...files.values(), ...salvaged], places);
  return { content, files, signatures, errors, warnings, checkedInThreads: inThreads, extras };
}

/** The content's extra files as they are now (a watcher saw one change), or the errors of the entries refused there. */
export async function loadExtraFiles(contentDir: string): Promise<{ extras: ExtraFile[]; errors: ContentError[] }> {
  const listing = await statContentFiles(contentDir);
  const inExtra = (path: string) => 'extra' in placeOf(path);
  const errors: ContentError[] = listing.refused
    .filter(({ path }) => inExtra(path))
    .map(({ path, message }) => ({ file: join(contentDir, path), line: 1, column: 1, path: '', message }));
  const extras: ExtraFile[] = [];
  for (const listed of listing.files) {
    const place = placeOf(listed.relativePath);
    if ('extra' in place) extras.push(readExtra(listed, join(contentDir, listed.relativePath), place.extra, new Map()));
  }
  return { extras, errors };
}

/** A file found in the content folder, with its size and time when listed. */
interface ListedFile {
  /** Relative to the content folder, with `/`. */
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** The content folder's files (content/walk.ts) with their size and time, and the entries it refuses. */
export async function statContentFiles(contentDir: string): Promise<{ files: ListedFile[]; refused: { path: string; message: string }[] }> {
  const listing = await listContentFiles(contentDir);
  // One synchronous lstat after another: cheap for thousands of files (links are refused by the listing, never followed).
  const files = listing.files.map((relativePath) => {
    const info = lstatSync(join(contentDir, relativePath));
    return { relativePath, size: info.size, mtimeMs: info.mtimeMs };
  });
  return { files, refused: listing.refused };
}

/**
 * Sorts checked files into the content the validator reads. `places` names
 * every content file present, valid or not (a project folder whose
 * project.yaml is invalid still has one).
 */
export function assembleContent(files: Iterable<CheckedFile>, places: Iterable<FilePlace>): LoadedContent {
  const componentFiles = new Set<string>();
  const categoryFiles = new Set<string>();
  const content: LoadedContent = {
    site: null,
    languages: [],
    projects: [],
    categories: [],
    components: [],
    projectFolders: [],
    projectFiles: [],
    siteFile: false,
    componentFiles,
    categoryFiles,
  };
  const sorted = [...files].sort((a, b) => compareStrings(a.file, b.file));
  for (const checked of sorted) addChecked(content, checked);
  const folders = new Set<string>();
  const projectFiles = new Set<string>();
  for (const place of places) {
    if (place.kind === 'project' || place.kind === 'component' || place.kind === 'category') folders.add(place.project);
    if (place.kind === 'project') projectFiles.add(place.project);
    if (place.kind === 'component') componentFiles.add(`${place.project}/${place.component}`);
    if (place.kind === 'category') categoryFiles.add(`${place.project}/${place.category}`);
    if (place.kind === 'site') content.siteFile = true;
  }
  content.projectFolders = [...folders].sort(compareStrings);
  content.projectFiles = [...projectFiles].sort(compareStrings);
  return content;
}

// --- internal ---

/** An extra file's bytes, its signature kept like a YAML file's (so a cached build sees it change). */
function readExtra(listed: ListedFile, file: string, path: string, signatures: Map<string, FileSignature>): ExtraFile {
  const bytes = readFileSync(file);
  const hash = hashBytes(bytes);
  signatures.set(listed.relativePath, { size: listed.size, mtimeMs: listed.mtimeMs, hash });
  return { path, bytes, hash };
}

function addChecked(content: LoadedContent, checked: CheckedFile): void {
  switch (checked.place.kind) {
    case 'site': content.site = checked as CheckedFile<'site'>; break;
    case 'language': content.languages.push(checked as CheckedFile<'language'>); break;
    case 'project': content.projects.push(checked as CheckedFile<'project'>); break;
    case 'category': content.categories.push(checked as CheckedFile<'category'>); break;
    case 'component': content.components.push(checked as CheckedFile<'component'>); break;
  }
}
