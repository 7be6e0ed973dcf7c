/**
 * Reads a content folder: finds its YAML files, classifies each by its place
 * and checks it (files.ts; in threads for a large folder, check-pool.ts). With
 * check-pool.ts, the only modules of the content pipeline that touch the disk.
 */
import { join } from 'node:path';
import type { ContentError } from '../errors.ts';
import { compareStrings } from '../errors.ts';
import { checkFiles, type CheckJob, type CheckOptions } from './check-pool.ts';
import { placeOf, type CheckedFile, type FilePlace } from './files.ts';
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
  errors: ContentError[];
  /** What valid files most likely left out by mistake (content/rules.ts#componentWarnings). */
  warnings: ContentError[];
  /** How many files were checked in worker threads (check-pool.ts). */
  checkedInThreads: number;
}

/** Reads and checks every content file under `contentDir`, in a fixed (sorted) order. */
export async function loadContent(contentDir: string, options: CheckOptions = {}): Promise<LoadResult> {
  const listing = await listContentFiles(contentDir);
  const relativePaths = listing.files;
  const errors: ContentError[] = listing.refused.map(({ path, message }) => ({ file: join(contentDir, path), line: 1, column: 1, path: '', message }));
  const jobs: (CheckJob & { relativePath: string })[] = [];
  for (const relativePath of relativePaths) {
    const file = join(contentDir, relativePath);
    const result = placeOf(relativePath);
    if ('ignored' in result) continue;
    if ('error' in result) errors.push({ file, line: 1, column: 1, path: '', message: result.error });
    else jobs.push({ relativePath, file, place: result.place });
  }
  const { results, inThreads } = await checkFiles(jobs, options);
  const files = new Map<string, CheckedFile>();
  // A file with errors still takes part in the cross-file rules when its fields at fault could be left out.
  const salvaged: CheckedFile[] = [];
  const warnings: ContentError[] = [];
  results.forEach((result, index) => {
    if (!result.ok) {
      errors.push(...result.errors);
      if (result.salvaged) salvaged.push(result.salvaged);
    } else {
      files.set(jobs[index]!.relativePath, result.checked);
      warnings.push(...(result.warnings ?? []));
    }
  });
  const places = jobs.map((job) => job.place);
  return { content: assembleContent([...files.values(), ...salvaged], places), files, errors, warnings, checkedInThreads: inThreads };
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

function addChecked(content: LoadedContent, checked: CheckedFile): void {
  switch (checked.place.kind) {
    case 'site': content.site = checked as CheckedFile<'site'>; break;
    case 'language': content.languages.push(checked as CheckedFile<'language'>); break;
    case 'project': content.projects.push(checked as CheckedFile<'project'>); break;
    case 'category': content.categories.push(checked as CheckedFile<'category'>); break;
    case 'component': content.components.push(checked as CheckedFile<'component'>); break;
  }
}
