/**
 * `build --watch`: a session kept open while an editor changes the content.
 * File events are gathered until the folder has been quiet for a moment,
 * the touched content files are read again, and the session adopts them:
 * the tree is updated in place (only what the change affects), or, when the
 * content has errors, left as it was until a later change fixes them.
 */
import { readdirSync, statSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { placeOf } from '../content/files.ts';
import { listContentFiles } from '../content/walk.ts';
import type { ContentError } from '../errors.ts';
import type { UpdateStats } from '../tree/update.ts';
import type { ContentChange, Session } from './session.ts';

interface WatchEvents {
  /** The tree now shows the content as changed (`paths`: the content files that changed). */
  updated(report: { paths: string[]; stats: UpdateStats; ms: number }): void;
  /** The content as it stands has errors: the tree was left as it was. */
  rejected(report: { paths: string[]; errors: ContentError[] }): void;
  /** Something went wrong that is not the content's fault (the disk, a bug); watching goes on. */
  failed(error: unknown): void;
}

interface Watcher {
  /** Stops watching, waits for the update in progress, and closes the session. */
  close(): Promise<void>;
}

/** How long the folder must be quiet before a change is taken (editors write in several steps). */
const QUIET_MS = 40;

/** Watches the session's content folder and brings its tree in line after each change. */
export function watchContent(session: Session, events: WatchEvents, quietMs = QUIET_MS): Watcher {
  const contentDir = session.contentDir;
  const touched = new Set<string>();
  /** Files of a change the content checks refused: looked at again with every later change. */
  const unsettled = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const take = async () => {
    const paths = [...new Set([...touched, ...unsettled])];
    touched.clear();
    const started = performance.now();
    const extras = paths.filter(isInExtra);
    if (extras.length > 0) await takeExtras(extras, started);
    const { changes, misplaced } = await changedFiles(
      contentDir,
      paths,
      new Set(session.contentFiles),
    );
    const changed = [
      ...changes.map((change) => change.path),
      ...misplaced.map((error) => error.path),
    ];
    if (misplaced.length > 0) {
      for (const path of changed) unsettled.add(path);
      events.rejected({ paths: changed, errors: misplaced.map((error) => error.error) });
      return;
    }
    if (changes.length === 0) return;
    const result = await session.adopt(changes);
    if (result.ok) {
      unsettled.clear();
      events.updated({ paths: changed, stats: result.stats, ms: performance.now() - started });
    } else {
      for (const path of changed) unsettled.add(path);
      events.rejected({ paths: changed, errors: result.errors });
    }
  };
  // Extra files are not YAML: they are read again together, and their groups alone rewritten.
  const takeExtras = async (extras: string[], started: number) => {
    const result = await session.adoptExtras();
    for (const path of extras) {
      if (result.ok) unsettled.delete(path);
      else unsettled.add(path);
    }
    if (result.ok)
      events.updated({ paths: extras, stats: result.stats, ms: performance.now() - started });
    else events.rejected({ paths: extras, errors: result.errors });
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = running.then(take).catch((error: unknown) => events.failed(error));
    }, quietMs);
  };

  const folders = new FolderWatcher(
    contentDir,
    (path) => {
      if (closed) return;
      touched.add(path);
      schedule();
    },
    (error) => events.failed(error),
  );

  return {
    async close() {
      closed = true;
      folders.close();
      if (timer) clearTimeout(timer);
      await running;
      await session.close();
    },
  };
}

// --- internal ---

/**
 * One plain `fs.watch` per folder of the tree (dot folders aside, but in extra/), all set
 * up before the constructor returns, so that no change made after it is
 * missed (Node's recursive mode on Linux sets up its watchers later and
 * polls files). A folder that appears is watched too; one that goes is let go.
 * Reports paths relative to the root, with `/`; dot files are left out
 * (but in extra/).
 */
class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(
    private readonly root: string,
    private readonly onPath: (path: string) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.add('');
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private add(folder: string): void {
    if (this.watchers.has(folder)) return;
    const absolute = join(this.root, folder);
    let watcher: FSWatcher;
    try {
      watcher = watch(absolute, (_event, name) =>
        this.changed(folder, name === null ? null : name.toString()),
      );
    } catch (error) {
      // Gone before it could be watched: its parent's event already said so.
      if (folder === '') this.onError(error);
      return;
    }
    watcher.on('error', () => this.drop(folder));
    this.watchers.set(folder, watcher);
    let entries: Dirent[];
    try {
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries)
      if (entry.isDirectory() && isWatched(folder, entry.name)) this.add(child(folder, entry.name));
  }

  private drop(folder: string): void {
    for (const [key, watcher] of this.watchers) {
      if (key === folder || key.startsWith(`${folder}/`)) {
        watcher.close();
        this.watchers.delete(key);
      }
    }
  }

  private changed(folder: string, name: string | null): void {
    if (name === null || !isWatched(folder, name)) return;
    const path = child(folder, name);
    if (isFolder(join(this.root, path))) this.add(path);
    else if (this.watchers.has(path)) this.drop(path);
    this.onPath(path);
  }
}

/** Dot names are an editor's or version control's, except in extra/, where hosts read them (.well-known/). */
function isWatched(folder: string, name: string): boolean {
  return !name.startsWith('.') || isInExtra(folder);
}

function isInExtra(path: string): boolean {
  return path === 'extra' || path.startsWith('extra/');
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function child(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/**
 * The content files behind a list of touched paths, each with its new text
 * or null when it is gone. A touched path may be a folder (created, moved or
 * removed whole): then the known files under it and the YAML files now in
 * it count. Paths that are not content files (a README, an editor's backup)
 * are left out; a YAML file where content cannot be is an error, as in a build.
 */
async function changedFiles(contentDir: string, paths: string[], known: Set<string>) {
  const candidates = new Set<string>();
  for (const path of paths) {
    const place = placeOf(path);
    if (!('ignored' in place) && !('extra' in place)) candidates.add(path);
    if (isInExtra(path)) continue;
    const prefix = `${path}/`;
    for (const file of known) if (file.startsWith(prefix)) candidates.add(file);
    if (isFolder(join(contentDir, path)))
      for (const file of (await listContentFiles(join(contentDir, path))).files)
        if (/\.ya?ml$/.test(file)) candidates.add(`${prefix}${file}`);
  }
  const changes: ContentChange[] = [];
  const misplaced: { path: string; error: ContentError }[] = [];
  for (const path of [...candidates].sort()) {
    const file = join(contentDir, path);
    const text = await readFile(file, 'utf8').catch(() => null);
    const place = placeOf(path);
    if ('error' in place) {
      if (text !== null)
        misplaced.push({
          path,
          error: { file, line: 1, column: 1, path: '', message: place.error },
        });
    } else if (text !== null || known.has(path)) {
      changes.push({ path, text });
    }
  }
  return { changes, misplaced };
}
