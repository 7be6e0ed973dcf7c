/**
 * Reads a content folder: finds its YAML files, classifies each by its place
 * and checks it (files.ts; in threads for a large folder, check-pool.ts), and
 * keeps each file's signature (signatures.ts): its size and time as listed,
 * before it was read, and the hash of the text checked. With check-pool.ts,
 * the only modules of the content pipeline that touch the disk.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { ContentError } from '../errors.ts';
import { compareStrings } from '../errors.ts';
import { checkFiles, type CheckJob, type CheckOptions } from './check-pool.ts';
import { placeOf, type CheckedFile, type FilePlace } from './files.ts';
import type { FileSignature } from './signatures.ts';

export interface LoadedContent {
  site: CheckedFile<'site'> | null;
  languages: CheckedFile<'language'>[];
  projects: CheckedFile<'project'>[];
  components: CheckedFile<'component'>[];
  /** Every project folder (named by a project.yaml or a component file in it). */
  projectFolders: string[];
  /** Project folders that have a project.yaml, valid or not. */
  projectFiles: string[];
  /** Whether there is a site.yaml, valid or not (an invalid one reports its own errors). */
  siteFile: boolean;
}

interface LoadResult {
  content: LoadedContent;
  /** Every valid file by its path relative to the content folder (with `/`). */
  files: Map<string, CheckedFile>;
  /** The signature of every content file read, valid or not, by the same path. */
  signatures: Map<string, FileSignature>;
  errors: ContentError[];
  /** How many files were checked in worker threads (check-pool.ts). */
  checkedInThreads: number;
}

/** Reads and checks every content file under `contentDir`, in a fixed (sorted) order. */
export async function loadContent(contentDir: string, options: CheckOptions = {}): Promise<LoadResult> {
  const errors: ContentError[] = [];
  const jobs: (CheckJob & ListedFile)[] = [];
  for (const listed of await listContentFiles(contentDir)) {
    const file = join(contentDir, listed.relativePath);
    const result = placeOf(listed.relativePath);
    if ('ignored' in result) continue;
    if ('error' in result) errors.push({ file, line: 1, column: 1, path: '', message: result.error });
    else jobs.push({ ...listed, file, place: result.place });
  }
  const { results, inThreads } = await checkFiles(jobs, options);
  const files = new Map<string, CheckedFile>();
  const signatures = new Map<string, FileSignature>();
  results.forEach(({ result, hash }, index) => {
    const job = jobs[index]!;
    signatures.set(job.relativePath, { size: job.size, mtimeMs: job.mtimeMs, hash });
    if (!result.ok) errors.push(...result.errors);
    else files.set(job.relativePath, result.checked);
  });
  const places = jobs.map((job) => job.place);
  return { content: assembleContent(files.values(), places), files, signatures, errors, checkedInThreads: inThreads };
}

/** A file found in the content folder, with its size and time when listed. */
export interface ListedFile {
  /** Relative to the content folder, with `/`. */
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** Every file of the content folder (dot files aside), in a fixed (sorted) order, with its size and time. */
export async function listContentFiles(contentDir: string): Promise<ListedFile[]> {
  const paths = (await fg('**/*', { cwd: contentDir, onlyFiles: true, dot: false })).sort(compareStrings);
  // One synchronous stat after another: several times faster than fast-glob's own stats for thousands of files.
  return paths.map((relativePath) => {
    const info = statSync(join(contentDir, relativePath));
    return { relativePath, size: info.size, mtimeMs: info.mtimeMs };
  });
}

/**
 * Sorts checked files into the content the validator reads. `places` names
 * every content file present, valid or not (a project folder whose
 * project.yaml is invalid still has one).
 */
export function assembleContent(files: Iterable<CheckedFile>, places: Iterable<FilePlace>): LoadedContent {
  const content: LoadedContent = { site: null, languages: [], projects: [], components: [], projectFolders: [], projectFiles: [], siteFile: false };
  const sorted = [...files].sort((a, b) => compareStrings(a.file, b.file));
  for (const checked of sorted) addChecked(content, checked);
  const folders = new Set<string>();
  const projectFiles = new Set<string>();
  for (const place of places) {
    if (place.kind === 'project' || place.kind === 'component') folders.add(place.project);
    if (place.kind === 'project') projectFiles.add(place.project);
    if (place.kind === 'site') content.siteFile = true;
  }
  content.projectFolders = [...folders].sort(compareStrings);
  content.projectFiles = [...projectFiles].sort(compareStrings);
  return content;
}

// --- internal ---

function addChecked(content: LoadedContent, checked: CheckedFile): void {
  switch (checked.place.kind) {
    case 'site': content.site = checked as CheckedFile<'site'>; break;
    case 'language': content.languages.push(checked as CheckedFile<'language'>); break;
    case 'project': content.projects.push(checked as CheckedFile<'project'>); break;
    case 'component': content.components.push(checked as CheckedFile<'component'>); break;
  }
}
