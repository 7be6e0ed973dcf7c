/**
 * Vitest's global setup: the tests' temporary folders (tempDir()'s, and what the commands they
 * start make in the system's temporary folder) go to a folder of the run's own in memory,
 * /dev/shm, where the machine has one with room to spare. They are real files all the same; but
 * a run writes and removes hundreds of thousands of them, and on a slow disk that, not the tests,
 * set the pace. WSNAP_TEST_TMPDIR chooses another parent folder (`WSNAP_TEST_TMPDIR=/tmp`: the
 * disk). The folder is removed after the run.
 */
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const IN_MEMORY = '/dev/shm';
/** Room a run needs at its peak, with a wide margin (a container's /dev/shm of 64 MiB has not). */
const ROOM = 4 * 1024 ** 3;

export default function useTempRoot(): (() => void) | undefined {
  const parent = process.env.WSNAP_TEST_TMPDIR ?? (hasRoom(IN_MEMORY) ? IN_MEMORY : null);
  if (!parent) return undefined;
  const root = mkdtempSync(join(parent, 'weblate-snapshot-tests-'));
  // Open to other users as /tmp is: a test run as root runs a command as nobody in a folder of
  // its own made readable (issue-13-out-folder), which mkdtemp's 0700 would keep out of reach.
  chmodSync(root, 0o755);
  // Read by os.tmpdir() here, in the test workers (started after this) and in what they start.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}

function hasRoom(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize >= ROOM;
  } catch {
    return false;
  }
}
