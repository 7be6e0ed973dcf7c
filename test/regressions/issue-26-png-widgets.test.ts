/**
 * Issue 26, item 3: the widgets Weblate serves beside the SVG badge, in both flavours' URL forms:
 * `status-badge.png`, `287x66-<color>.png` and `88x31-<color>.png` in Weblate's colors,
 * `language-badge.svg`, `matrix-<color>.svg` and the project's `open-graph.png`. The PNGs are
 * decoded here (IHDR for the size, IDAT inflated and unfiltered for the pixels): their sizes are
 * Weblate's, their backgrounds the color named, and their text is drawn, from the DejaVu fonts
 * the package ships.
 */
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { dirTarget } from '../../src/output/target.ts';
import { FIXTURES, tempDir } from '../helpers.ts';
import { decodePng, hex, inked } from '../support/png.ts';

async function builtSite(fixture: string): Promise<string> {
  const content = join(tempDir(), 'content');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  appendFileSync(join(content, 'site.yaml'), 'pages: true\n');
  const out = join(tempDir(), 'out');
  const report = await build({ contentDir: content }, { target: dirTarget(out) });
  expect(report.errors).toEqual([]);
  return out;
}

describe.each([
  ['4', 'minimal', 'widgets/hello/-'],
  ['2026.8', 'current', 'widget/docs'],
] as const)('the PNG widgets of a project (flavour %s)', (_flavour, fixture, folder) => {
  it("decode at Weblate's sizes, on the background of the color named, with their text drawn", async () => {
    const out = await builtSite(fixture);
    const png = (name: string) => decodePng(readFileSync(join(out, folder, name)));

    const backgrounds = { grey: '#e6e6e6', white: '#ffffff', black: '#222222' };
    for (const [color, background] of Object.entries(backgrounds)) {
      const big = png(`287x66-${color}.png`);
      expect([big.width, big.height]).toEqual([287, 66]);
      expect(hex(big.at(4, 33)), `287x66-${color}`).toBe(background);
      // Three columns of a figure and its label.
      for (const column of [0, 1, 2])
        expect(
          inked(big, background, [column * 95 + 10, 12, column * 95 + 85, 54]),
        ).toBeGreaterThan(50);
      const small = png(`88x31-${color}.png`);
      expect([small.width, small.height]).toEqual([88, 31]);
      expect(hex(small.at(3, 15)), `88x31-${color}`).toBe(background);
      expect(inked(small, background, [10, 3, 78, 28])).toBeGreaterThan(30);
    }

    // The PNG badge is the SVG badge's drawing: as wide, 20 high, the grey label on the left.
    const badge = png('status-badge.png');
    const svg = readFileSync(join(out, folder, 'svg-badge.svg'), 'utf8');
    expect(badge.width).toBe(Number(/width="(\d+)"/.exec(svg)![1]));
    expect(badge.height).toBe(20);
    const [r, g, b] = badge.at(3, 10);
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(8);
    expect(r).toBeGreaterThan(0x50);
    expect(r).toBeLessThan(0x66);

    const graph = png('open-graph.png');
    expect([graph.width, graph.height]).toEqual([1200, 630]);
    expect(hex(graph.at(10, 10))).toBe('#1b3a57');
    expect(hex(graph.at(10, 600))).toBe('#2eccaa');
    expect(inked(graph, '#1b3a57', [0, 150, 1200, 240])).toBeGreaterThan(1000);
  });

  it('writes the language badge and the matrix in every chart color', async () => {
    const out = await builtSite(fixture);
    const languageBadge = readFileSync(join(out, folder, 'language-badge.svg'), 'utf8');
    expect(languageBadge).toMatch(/<title>languages: \d+<\/title>/);
    for (const color of ['auto', 'red', 'green', 'blue']) {
      const matrix = readFileSync(join(out, folder, `matrix-${color}.svg`), 'utf8');
      expect(matrix).toMatch(/^<svg [^>]*role="img"/);
      expect(matrix).toMatch(
        /<title>Translation status of \d+ components? in \d+ languages?<\/title>/,
      );
    }
  });
});
