/**
 * The PNG widgets: an SVG drawing of badges.ts or widget-images.ts rasterised
 * with resvg and the DejaVu fonts the package ships (data/fonts/), so the
 * pixels are the same on every machine and no system font is read. A
 * rasterisation costs milliseconds, so the bytes are kept by the SVG's text:
 * two projects at the same figures share one rendering.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as ResvgModule from '@resvg/resvg-js';
import { packageFile } from '../package-files.ts';

/** The PNG bytes of an SVG drawing, at its own width and height. */
export function renderPng(svg: string): Uint8Array {
  const known = rendered.get(svg);
  if (known) return known;
  const png = new (resvg().Resvg)(svg, {
    font: { fontFiles: fontFiles(), loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  // A bounded cache: a long session must not keep every drawing it ever made.
  if (rendered.size >= CACHE_SIZE) rendered.clear();
  rendered.set(svg, png);
  return png;
}

// --- internal ---

const CACHE_SIZE = 4096;
const rendered = new Map<string, Uint8Array>();

let loaded: typeof ResvgModule | null = null;

/** The renderer, loaded when first needed: a process that draws no PNG does not pay for the native module. */
function resvg(): typeof ResvgModule {
  loaded ??= createRequire(import.meta.url)('@resvg/resvg-js') as typeof ResvgModule;
  return loaded;
}

let files: string[] | null = null;

function fontFiles(): string[] {
  files ??= ['data/fonts/DejaVuSans.ttf', 'data/fonts/DejaVuSans-Bold.ttf'].map((path) =>
    fileURLToPath(packageFile(path)),
  );
  return files;
}
