/** The folder beside a tree where what is kept of it lives (manifest, files record, build cache, deploy records). */

/** The folder beside the tree where its manifest is kept (and what else is kept of the tree: its settings, the build cache, deploy records). */
export function stateDir(outDir: string): string {
  return `${outDir}.state`;
}
