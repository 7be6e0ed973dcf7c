/**
 * The one way a patched model reaches a tree: the groups the patch may have changed are updated in
 * place and the manifest is compacted once its journal is long. The build cache and the session
 * both go through here, so a patch lands the same whichever process made it.
 */
import type { PatchScope } from '../resolve/patch.ts';
import type { Model } from '../model/types.ts';
import type { FingerprintCache } from './fingerprints.ts';
import type { InstanceList } from './groups.ts';
import { journalIsLong, writeManifest, type Manifest } from './manifest.ts';
import { patchedGroups } from './patched.ts';
import { updatePatched, type TreeInPlace, type UpdateStats } from './update.ts';

/** A model before and after a patch of some components, and what the patch touched. */
interface ModelPatch {
  before: Model;
  after: Model;
  scope: PatchScope;
}

interface ApplyOptions {
  fingerprints: FingerprintCache;
  /** Leave instance-wide lists whose length changed for later (they come back in `deferred`). */
  deferInstanceLists?: boolean;
}

/** Updates the tree at `outDir` for a patch; `manifest` is updated in memory too. */
export async function applyPatch(
  outDir: string,
  tree: TreeInPlace,
  manifest: Manifest,
  patch: ModelPatch,
  options: ApplyOptions,
): Promise<{ stats: UpdateStats; deferred: InstanceList[] }> {
  const groups = patchedGroups(patch.before, patch.after, patch.scope, options.fingerprints, {
    deferInstanceLists: options.deferInstanceLists,
    hosts: { host: manifest.host },
    pngs: tree.pngs,
  });
  const stats = await updatePatched(tree, groups, manifest);
  if (journalIsLong(manifest)) await writeManifest(outDir, manifest);
  return { stats, deferred: groups.deferred ?? [] };
}
