/**
 * Reads a content folder: finds its YAML files, classifies each by its place
 * and checks it (files.ts). The only module of the content pipeline that
 * touches the disk.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { ContentError } from '../errors.ts';
import { compareStrings } from '../errors.ts';
import { checkFile, placeOf, type CheckedFile, type FilePlace } from './files.ts';

export interface LoadedContent {
  site: CheckedFile<'site'> | null;
  languages: CheckedFile<'language'>[];
  projects: CheckedFile<'project'>[];
  components: CheckedFile<'component'>[];
  /** Every project folder (named by a project.yaml or a component file in it). */
  projectFolders: string[];
  /** Project folders that have a project.yaml, valid or not. */
  projectFiles: string[];
}

export interface LoadResult {
  content: LoadedContent;
  errors: ContentError[];
}

/** Reads and checks every content file under `contentDir`, in a fixed (sorted) order. */
export async function loadContent(contentDir: string): Promise<LoadResult> {
  const relativePaths = (await fg('**/*', { cwd: contentDir, onlyFiles: true, dot: false })).sort(compareStrings);
  const content: LoadedContent = { site: null, languages: [], projects: [], components: [], projectFolders: [], projectFiles: [] };
  const errors: ContentError[] = [];
  const folders = new Set<string>();
  const jobs: { file: string; place: FilePlace }[] = [];
  for (const relativePath of relativePaths) {
    const file = join(contentDir, relativePath);
    const result = placeOf(relativePath);
    if ('ignored' in result) continue;
    if ('error' in result) {
      errors.push({ file, line: 1, column: 1, path: '', message: result.error });
      continue;
    }
    if (result.place.kind === 'project' || result.place.kind === 'component') folders.add(result.place.project);
    if (result.place.kind === 'project') content.projectFiles.push(result.place.project);
    jobs.push({ file, place: result.place });
  }
  const texts = await readAll(jobs.map((job) => job.file));
  jobs.forEach((job, index) => {
    const result = checkFile(job.file, job.place, texts[index]!);
    if (!result.ok) errors.push(...result.errors);
    else addChecked(content, result.checked);
  });
  content.projectFolders = [...folders].sort(compareStrings);
  return { content, errors };
}

// --- internal ---

const READ_CONCURRENCY = 64;

async function readAll(files: string[]): Promise<string[]> {
  const texts = new Array<string>(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const index = next++;
      texts[index] = await readFile(files[index]!, 'utf8');
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  return texts;
}

function addChecked(content: LoadedContent, checked: CheckedFile): void {
  switch (checked.place.kind) {
    case 'site': content.site = checked as CheckedFile<'site'>; break;
    case 'language': content.languages.push(checked as CheckedFile<'language'>); break;
    case 'project': content.projects.push(checked as CheckedFile<'project'>); break;
    case 'component': content.components.push(checked as CheckedFile<'component'>); break;
  }
}
