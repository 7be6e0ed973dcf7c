/**
 * Issue 24: a publish or build at a million translations in under 1 GiB. resvg 2.6 keeps each
 * rendering's pixmap until its worker thread ends, and two workers live at once, so the pixel
 * budget after which a fresh worker takes over is held twice at the peak. At 16 million pixels
 * (some twenty Open Graph panels a worker) that was about 128 MB; now a worker hands over after
 * a few panels, and the bytes stay those resvg renders.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageFile } from '../../src/package-files.ts';
import { Rasteriser } from '../../src/status-site/rasteriser.ts';
import { renderOpenGraph } from '../../src/status-site/widget-images.ts';

const require = createRequire(import.meta.url);
const FONTS = ['data/fonts/DejaVuSans.ttf', 'data/fonts/DejaVuSans-Bold.ttf'].map((path) =>
  fileURLToPath(packageFile(path)),
);

describe("the PNG workers' default pixel budget", () => {
  it('hands twelve Open Graph panels over to a fresh worker at least once', () => {
    const rasteriser = new Rasteriser({
      resvgPath: require.resolve('@resvg/resvg-js'),
      fontFiles: FONTS,
    });
    try {
      for (let i = 0; i < 12; i++) {
        const panel = renderOpenGraph(`Project ${i}`, { strings: i, languages: 3, percent: 50 });
        expect(rasteriser.render(panel).byteLength).toBeGreaterThan(1000);
      }
      // 1200 × 630 pixels each: with the old budget all twelve went to one worker.
      expect(rasteriser.workersStarted).toBeGreaterThanOrEqual(2);
    } finally {
      rasteriser.close();
    }
  }, 60_000);
});
