/**
 * One writer per tree: a lock file in the tree's state folder, made with an
 * exclusive create and holding who took it (pid, what it is, when, on which
 * host). A build, build --watch and the sidecar take it; a second writer
 * would otherwise update the tree from a model that no longer matches it.
 * A lock whose process is gone (on this host) is stale and taken over.
 */
import { hostname } from 'node:os';
import { mkdir, open, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from './state-folder.ts';

export interface TreeLock {
  /** Lets the tree go (the lock file goes; the state folder too when the lock made it and it is empty). */
  release(): Promise<void>;
}

type LockResult = { ok: true; lock: TreeLock } | { ok: false; message: string };

/**
 * Takes the lock of the tree in `outDir` for `holder` ("a build", "the
 * sidecar"). When another build holds it, waits up to `waitMs` for it to
 * finish; a long-lived holder (the sidecar, build --watch) is not waited for.
 */
export async function lockTree(
  outDir: string,
  holder: string,
  options: { waitMs?: number } = {},
): Promise<LockResult> {
  const dir = stateDir(outDir);
  const made = (await stat(dir).catch(() => null)) === null;
  await mkdir(dir, { recursive: true });
  const file = join(dir, LOCK_NAME);
  const deadline = Date.now() + (options.waitMs ?? BUILD_WAIT_MS);
  for (;;) {
    if (await createLock(file, holder)) return { ok: true, lock: heldLock(file, made && dir) };
    const owner = await readOwner(file);
    if (owner === 'gone') continue;
    if (owner !== 'unreadable' && isStale(owner)) {
      await rm(file, { force: true });
      continue;
    }
    const waitable = owner === 'unreadable' || owner.holder === 'a build';
    if (!waitable || Date.now() >= deadline)
      return { ok: false, message: refusal(outDir, file, owner) };
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

// --- internal ---

const LOCK_NAME = 'lock';

/** How long a build waits for another build to let the tree go. */
const BUILD_WAIT_MS = 10_000;
const POLL_MS = 100;

interface Owner {
  pid: number;
  holder: string;
  started: string;
  host: string;
}

/** Creates the lock file if there is none; false when one is there. */
async function createLock(file: string, holder: string): Promise<boolean> {
  const owner: Owner = {
    pid: process.pid,
    holder,
    started: new Date().toISOString(),
    host: hostname(),
  };
  let handle;
  try {
    handle = await open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(owner)}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/** Who holds the lock; 'gone' when it was let go meanwhile, 'unreadable' while it is being written. */
async function readOwner(file: string): Promise<Owner | 'gone' | 'unreadable'> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return 'gone';
  try {
    const owner = JSON.parse(text) as Owner;
    return typeof owner.pid === 'number' ? owner : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** A lock of this host whose process is gone (a process of another host cannot be asked). */
function isStale(owner: Owner): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function refusal(outDir: string, file: string, owner: Owner | 'unreadable'): string {
  if (owner === 'unreadable')
    return `${outDir}/ is locked (${file} cannot be read); if no other build or sidecar runs, remove that file.`;
  const where = owner.host === hostname() ? '' : ` on ${owner.host}`;
  return (
    `${outDir}/ is being written by ${owner.holder} (pid ${owner.pid}${where}, since ${owner.started}); ` +
    `one process writes a tree at a time: stop it, or use another --out. ` +
    `If that process is gone, remove ${file}.`
  );
}

function heldLock(file: string, madeDir: string | false): TreeLock {
  let held = true;
  return {
    async release() {
      // Once only: a second release could remove the lock another process took since.
      if (!held) return;
      held = false;
      await rm(file, { force: true });
      // Only an empty folder goes: nothing else kept of the tree is touched.
      if (madeDir) await rmdir(madeDir).catch(() => undefined);
    },
  };
}
