/**
 * A full pull writes each component's file as soon as its reads are
 * complete, so that what it read need not stay in memory: into a staging
 * folder inside the content folder, `.pull-staged/`, whose files are moved
 * into place only once the whole pull is read and mapped. A pull that fails
 * drops the folder, leaving the content as it was. The folder holds a marker
 * file from its start: a folder of that name without one is the user's, and
 * the pull stops before it touches anything.
 */
import { readFileSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runPool } from '../pool.ts';
import { earlyComponentMapper } from './map.ts';
import { describeComponent, languagesOf, type ComponentRecord } from './record.ts';
import type { ApiLanguage } from './shapes.ts';
import type { KeptComponent, PulledComponent, SettleComponent, WalkStart } from './walk.ts';
import { isContentPlace, renderContentFile } from './write.ts';

const STAGE_DIR = '.pull-staged';
/** Written into the staging folder before anything else, so that only a folder a pull made is ever removed. */
const STAGE_MARKER = '.made-by-pull';

interface Stage {
  /** Given to the walk: each component read is mapped, written to the stage, and summed up. */
  settle(start: WalkStart): SettleComponent;
  /** The record's entry of each staged component (its file not yet stamped), by file path. */
  readonly records: ReadonlyMap<string, ComponentRecord>;
  /** The text of a staged file, by its path in the content. */
  read: (path: string) => string;
  /** Moves each staged file into place unless the same text is there already. */
  place(): Promise<{ written: string[]; unchanged: number }>;
  /** Removes the staging folder and what is in it. */
  drop(): Promise<void>;
}

/**
 * A new staging folder in `outDir`; one an interrupted run left is removed
 * first. A folder of that name that a pull did not make is left as it is, and why comes back.
 */
export async function openStage(
  outDir: string,
): Promise<{ ok: true; stage: Stage } | { ok: false; message: string }> {
  const folder = join(outDir, STAGE_DIR);
  if (!(await madeByPull(folder)))
    return {
      ok: false,
      message: `${folder} was not made by a pull (it has no ${STAGE_MARKER}), and a pull stages its files there; move it out of ${outDir}, or give another --out.`,
    };
  await rm(folder, { recursive: true, force: true });
  return { ok: true, stage: stageIn(outDir, folder) };
}

/**
 * The stage's writes, which a drop waits for: when one component's read fails, the walk ends
 * while other components are still being written, and a write after the folder was removed made
 * it again without its marker (the next pull then refused the folder), or made the removal fail.
 */
export function stageWrites(): {
  /** Runs `write` unless stopped; whether it ran. */
  run(write: () => Promise<void>): Promise<boolean>;
  /** Refuses new writes and waits for those under way (settled, failed or not). */
  stop(): Promise<void>;
} {
  const underWay = new Set<Promise<void>>();
  let stopped = false;
  return {
    async run(write) {
      if (stopped) return false;
      const running = write();
      underWay.add(running);
      try {
        await running;
      } finally {
        underWay.delete(running);
      }
      return true;
    },
    async stop() {
      stopped = true;
      await Promise.allSettled([...underWay]);
    },
  };
}

// --- internal ---

/** What the rest of the pull needs of a component whose file is staged. */
function summary(
  pulled: PulledComponent,
  notes: { warnings: string[]; hidden: string[] },
  sameLanguage: (language: ApiLanguage) => ApiLanguage,
): KeptComponent {
  return {
    kept: true,
    slug: pulled.component.slug,
    languages: languagesOf(pulled).map(sameLanguage),
    translations: pulled.translations.length,
    lists: pulled.lists,
    ...notes,
  };
}

/**
 * One object for each language as served: every translation brings its own
 * copy, and the summaries of a million translations would hold a million.
 */
function languageInterner(): (language: ApiLanguage) => ApiLanguage {
  const seen = new Map<string, ApiLanguage>();
  return (language) => {
    const text = JSON.stringify(language);
    const first = seen.get(text);
    if (first) return first;
    seen.set(text, language);
    return language;
  };
}

/** Renames `staged` over `target` when their texts differ (a file is never rewritten with the same text); true when moved. */
async function moveUnlessSame(staged: string, target: string): Promise<boolean> {
  const text = await readFile(staged, 'utf8');
  if ((await readFile(target, 'utf8').catch(() => null)) === text) return false;
  await mkdir(dirname(target), { recursive: true });
  await rename(staged, target);
  return true;
}

/** Whether `folder` is missing, or a folder (not a link) with the marker a pull writes first. */
async function madeByPull(folder: string): Promise<boolean> {
  const info = await lstat(folder).catch(() => null);
  if (info === null) return true;
  if (!info.isDirectory()) return false;
  const marker = await lstat(join(folder, STAGE_MARKER)).catch(() => null);
  return marker !== null && marker.isFile();
}

function stageIn(outDir: string, folder: string): Stage {
  const records = new Map<string, ComponentRecord>();
  const sameLanguage = languageInterner();
  let made: Promise<void> | null = null;
  const writes = stageWrites();
  const make = async () => {
    await mkdir(folder);
    await writeFile(
      join(folder, STAGE_MARKER),
      'Made by npm run pull to stage its files; removed when the pull ends.\n',
    );
  };
  return {
    settle(start) {
      const map = earlyComponentMapper(start, new Set(start.selected.map((p) => p.slug)));
      return async (project, pulled) => {
        const mapped = map(project.slug, pulled);
        const path = mapped.file.path;
        // A name the content layout refuses stays in memory: the mapping of the whole refuses it.
        if (!isContentPlace(path) || records.has(path)) return pulled;
        const notes = { warnings: mapped.warnings, hidden: mapped.hidden?.fields ?? [] };
        records.set(path, describeComponent(pulled, null, notes));
        const staged = join(folder, path);
        const wrote = await writes.run(async () => {
          await (made ??= make());
          await mkdir(dirname(staged), { recursive: true });
          await writeFile(staged, renderContentFile(mapped.file));
        });
        // Dropped meanwhile: the pull has failed, and what it read is let go with it.
        return wrote ? summary(pulled, notes, sameLanguage) : pulled;
      };
    },
    records,
    read: (path) => readFileSync(join(folder, path), 'utf8'),
    async place() {
      const written: string[] = [];
      await runPool([...records.keys()], 32, async (path) => {
        if (await moveUnlessSame(join(folder, path), join(outDir, path))) written.push(path);
      });
      await rm(folder, { recursive: true, force: true });
      return { written: written.sort(), unchanged: records.size - written.length };
    },
    async drop() {
      await writes.stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
