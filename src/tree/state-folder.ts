import { readFileSync } from 'node:fs';

/** The folder beside the tree where its manifest is kept (and what else is kept of the tree: its settings, the build cache, deploy records). */
export function stateDir(outDir: string): string {
  return `${outDir}.state`;
}

/**
 * A file of the state folder read whole, or null when it cannot be read. One
 * call even for tens of megabytes: a promise's read goes by half-megabyte
 * chunks, each waiting for its turn, and takes twice as long.
 */
export function readStateFile(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
