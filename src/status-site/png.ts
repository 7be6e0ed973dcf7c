/**
 * The PNG widgets: an SVG drawing of badges.ts or widget-images.ts rasterised
 * with resvg and the DejaVu fonts the package ships (data/fonts/), so the
 * pixels are the same on every machine and no system font is read. The
 * renderings run in worker threads (rasteriser.ts); a drawing asked for ahead
 * of need is usually ready when its group is rendered.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-files.ts';
import { Rasteriser } from './rasteriser.ts';

/** The PNG bytes of an SVG drawing, at its own width and height (blocks until they are in). */
export function renderPng(svg: string): Uint8Array {
  return rasteriser().render(svg);
}

/**
 * Starts rendering drawings in the background, in the order renderPng() will
 * take them; `instead` of those asked for before (for a whole new tree).
 */
export function preparePngs(drawings: Iterable<string>, instead = false): void {
  rasteriser().prefetch(drawings, instead);
}

// --- internal ---

let shared: Rasteriser | null = null;

/** Made when first needed: a process that draws no PNG does not pay for the native module. */
function rasteriser(): Rasteriser {
  shared ??= new Rasteriser({
    resvgPath: createRequire(import.meta.url).resolve('@resvg/resvg-js'),
    fontFiles: ['data/fonts/DejaVuSans.ttf', 'data/fonts/DejaVuSans-Bold.ttf'].map((path) =>
      fileURLToPath(packageFile(path)),
    ),
  });
  return shared;
}
