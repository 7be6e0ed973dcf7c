/**
 * The PNG widgets: an SVG drawing of badges.ts or widget-images.ts rasterised
 * with resvg and the DejaVu fonts the package ships (data/fonts/), so the
 * pixels are the same on every machine and no system font is read. The
 * renderings run in worker threads (rasteriser.ts); a drawing asked for ahead
 * of need is usually ready when its group is rendered. A store that outlives
 * the process (a tree's, kept in its state folder) is asked first, by the drawing's key.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-files.ts';
import { Rasteriser } from './rasteriser.ts';

/** Renderings kept between processes, by drawingKey(). */
export interface PngStore {
  has(key: string): boolean;
  /** The bytes kept for the key, or null when they are gone or damaged. */
  get(key: string): Uint8Array | null;
  put(key: string, png: Uint8Array): void;
}

/** The PNG bytes of an SVG drawing, at its own width and height (blocks until they are in). */
export function renderPng(svg: string, store: PngStore | null = null): Uint8Array {
  if (!store) return rasteriser().render(svg);
  const key = drawingKey(svg);
  const kept = store.has(key) ? store.get(key) : null;
  if (kept) return kept;
  const png = rasteriser().render(svg);
  store.put(key, png);
  return png;
}

/**
 * Starts rendering drawings in the background, in the order renderPng() will
 * take them; `instead` of those asked for before (for a whole new tree).
 * Those the store holds are not rendered.
 */
export function preparePngs(
  drawings: Iterable<string>,
  instead = false,
  store: PngStore | null = null,
): void {
  rasteriser().prefetch(store ? notIn(store, drawings) : drawings, instead);
}

/** Drawings this process has sent to be rendered (a store's or the memory's bytes are not drawn). */
export function pngsDrawn(): number {
  return shared?.drawn ?? 0;
}

/** Ends the rendering threads and forgets the renderings held: drawings asked for later are drawn again. */
export function releasePngs(): void {
  shared?.release();
}

// --- internal ---

let shared: Rasteriser | null = null;
let stamp: string | null = null;

/**
 * What a rendering is kept by: a hash of the drawing, the resvg version and
 * the fonts, so bytes rendered by another version or other fonts are not taken.
 */
function drawingKey(svg: string): string {
  return createHash('sha256').update(rendererStamp()).update(svg).digest('base64url');
}

/** Made when first needed: a process that draws no PNG does not pay for the native module. */
function rasteriser(): Rasteriser {
  shared ??= new Rasteriser({ resvgPath: resvgPath(), fontFiles: fontFiles() });
  return shared;
}

function* notIn(store: PngStore, drawings: Iterable<string>): Generator<string> {
  for (const svg of drawings) if (!store.has(drawingKey(svg))) yield svg;
}

function resvgPath(): string {
  return createRequire(import.meta.url).resolve('@resvg/resvg-js');
}

function fontFiles(): string[] {
  return ['data/fonts/DejaVuSans.ttf', 'data/fonts/DejaVuSans-Bold.ttf'].map((path) =>
    fileURLToPath(packageFile(path)),
  );
}

/** The resvg version and a hash of the fonts' bytes, read once a process. */
function rendererStamp(): string {
  if (stamp !== null) return stamp;
  const resvg = join(dirname(resvgPath()), 'package.json');
  const h = createHash('sha256').update(readFileSync(resvg));
  for (const file of fontFiles()) h.update(readFileSync(file));
  stamp = h.digest('base64url');
  return stamp;
}
