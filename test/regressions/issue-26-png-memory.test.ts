/**
 * Issue 26, item 3 (and issue 24, item 4): the PNG widgets render in worker threads that are
 * ended after a budget of pixels, because resvg 2.6 keeps every rendering's pixmap until its
 * thread ends (thx/resvg-js#216). A process drawing many Open Graph panels stays small, and
 * the bytes are those resvg renders in the thread that asks.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type * as ResvgModule from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { packageFile } from '../../src/package-files.ts';
import { renderBadge } from '../../src/status-site/badges.ts';
import { preparePngs, renderPng } from '../../src/status-site/png.ts';
import { Rasteriser } from '../../src/status-site/rasteriser.ts';
import { renderBitmapWidget, renderOpenGraph } from '../../src/status-site/widget-images.ts';
import { compiledModule, ROOT, tempDir } from '../helpers.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const FONTS = ['data/fonts/DejaVuSans.ttf', 'data/fonts/DejaVuSans-Bold.ttf'].map((path) =>
  fileURLToPath(packageFile(path)),
);

/** The drawing's PNG as resvg renders it in this thread, with the package's fonts. */
function renderHere(svg: string): Buffer {
  const { Resvg } = require('@resvg/resvg-js') as typeof ResvgModule;
  const font = { fontFiles: FONTS, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' };
  return new Resvg(svg, { font }).render().asPng();
}

function openGraph(i: number): string {
  return renderOpenGraph(`Project ${i}`, { strings: 1000 + i, languages: 10, percent: 50 });
}

describe('PNG widgets rendered off the main thread', () => {
  it('keeps peak RSS bounded over 100 Open Graph panels in one process', async () => {
    const dir = tempDir();
    const script = join(dir, 'render.mjs');
    // Each panel is 1200 × 630: resvg kept about 3 MB of each. Over 100, the peak was 412 MiB
    // with every panel drawn by one thread, and is 150 MiB with fresh threads.
    writeFileSync(
      script,
      [
        `import { readFileSync } from 'node:fs';`,
        `import { renderPng } from ${JSON.stringify(compiledModule('src/status-site/png.ts'))};`,
        `import { renderOpenGraph } from ${JSON.stringify(compiledModule('src/status-site/widget-images.ts'))};`,
        `let bytes = 0;`,
        `for (let i = 0; i < 100; i++)`,
        `  bytes += renderPng(renderOpenGraph('Project ' + i, { strings: i, languages: 3, percent: 50 })).byteLength;`,
        `const peak = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1];`,
        `console.log(JSON.stringify({ bytes, peakMiB: Number(peak) / 1024 }));`,
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [script], { cwd: ROOT });
    const result = JSON.parse(stdout) as { bytes: number; peakMiB: number };
    expect(result.bytes).toBeGreaterThan(100 * 1000);
    expect(result.peakMiB).toBeLessThan(280);
  }, 120_000);

  it('gives the bytes resvg renders in the asking thread, prefetched or not', () => {
    const drawings = [
      renderBadge(42),
      renderBitmapWidget('287x66', 'black', { strings: 12, languages: 3, percent: 42 }),
      renderBitmapWidget('88x31', 'white', { strings: 12, languages: 3, percent: 42 }),
      openGraph(1),
    ];
    preparePngs(drawings.slice(2));
    for (const svg of drawings) expect(Buffer.from(renderPng(svg))).toEqual(renderHere(svg));
  });

  it('hands drawings over to fresh workers past the pixel budget, bytes unchanged', () => {
    const rasteriser = new Rasteriser({
      resvgPath: require.resolve('@resvg/resvg-js'),
      fontFiles: FONTS,
      // Two panels a worker: ten panels go through five workers.
      pixelBudget: 2 * 1200 * 630,
    });
    try {
      const drawings = Array.from({ length: 10 }, (_, i) => openGraph(100 + i));
      rasteriser.prefetch(drawings.slice(0, 6));
      for (const svg of drawings)
        expect(Buffer.from(rasteriser.render(svg))).toEqual(renderHere(svg));
    } finally {
      rasteriser.close();
    }
  }, 60_000);

  it('throws an internal error for a drawing resvg refuses, asked for ahead or not', () => {
    const refused = (n: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${n}"`;
    expect(() => renderPng(refused(0))).toThrow(
      /^Internal error: resvg could not render a drawing: /,
    );
    preparePngs([refused(1)]);
    expect(() => renderPng(refused(1))).toThrow(/^Internal error: resvg could not render/);
    expect(Buffer.from(renderPng(renderBadge(7)))).toEqual(renderHere(renderBadge(7)));
  });
});
