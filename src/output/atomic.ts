/**
 * Writing a file so that no reader, and no crash, ever finds it half written:
 * the bytes go to a temporary dot file (never read as content, never served)
 * and are renamed over the file. `durable` also waits for the bytes and the
 * rename to reach the disk (fsync of the file, then of its folder), so that
 * the file is whole before or whole after even on power loss.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

interface AtomicWriteOptions {
  durable?: boolean;
  /** Where to put the temporary file (a folder on the same file system); beside the file by default. */
  scratch?: string;
}

/** `data` as chunks is written one after the other: a file too long for one string or buffer. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(file);
  await mkdir(folder, { recursive: true });
  if (options.scratch) await mkdir(options.scratch, { recursive: true });
  const temporary = join(
    options.scratch ?? folder,
    `.${basename(file)}.tmp-${randomBytes(6).toString('hex')}`,
  );
  try {
    const handle = await open(temporary, 'w');
    try {
      if (Array.isArray(data)) for (const chunk of data) await handle.write(chunk);
      else await handle.writeFile(data as string | Uint8Array);
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  if (options.durable) await syncFolder(folder);
}

// --- internal ---

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
