/**
 * Issue 24: a publish at a million translations in under 1 GiB. resvg 2.6 keeps each rendering's
 * pixmap until its worker thread ends, so a worker hands over after a budget of pixels. The next
 * one was started before the old one ended, to overlap its start-up: two isolates, two copies of
 * the fonts and two budgets of pixmaps at once, some 35 MB more at the peak of a publish. Now a
 * fresh worker starts once the old one has answered and ended.
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

describe('the PNG workers', () => {
  const panels = Array.from({ length: 12 }, (_, i) =>
    renderOpenGraph(`Project ${i}`, { strings: i, languages: 3, percent: 50 }),
  );

  it('live one at a time, each handing over to the next once ended', () => {
    const rasteriser = new Rasteriser({
      resvgPath: require.resolve('@resvg/resvg-js'),
      fontFiles: FONTS,
    });
    try {
      for (const panel of panels) expect(rasteriser.render(panel).byteLength).toBeGreaterThan(1000);
      expect(rasteriser.workersStarted).toBeGreaterThanOrEqual(2);
      expect(rasteriser.peakWorkers).toBe(1);
    } finally {
      rasteriser.close();
    }
  }, 60_000);

  it('draw every drawing asked for ahead across a hand-over, the same bytes as drawn now', () => {
    const resvgPath = require.resolve('@resvg/resvg-js');
    const ahead = new Rasteriser({ resvgPath, fontFiles: FONTS, pixelBudget: 1_000_000 });
    const now = new Rasteriser({ resvgPath, fontFiles: FONTS });
    try {
      ahead.prefetch(panels);
      const drawn = panels.map((panel) => ahead.render(panel));
      expect(ahead.workersStarted).toBeGreaterThanOrEqual(6);
      expect(ahead.peakWorkers).toBe(1);
      expect(Buffer.from(drawn[7]!).equals(Buffer.from(now.render(panels[7]!)))).toBe(true);
    } finally {
      ahead.close();
      now.close();
    }
  }, 60_000);
});
