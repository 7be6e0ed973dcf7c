import { describe, expect, it } from 'vitest';
import { renderBadge, renderChart, type ChartRow } from '../../../src/status-site/badges.ts';
import { textWidth } from '../../../src/status-site/text-width.ts';

/** The numbers of an attribute wherever it appears, in order. */
function numbers(svg: string, attribute: string): number[] {
  return [...svg.matchAll(new RegExp(` ${attribute}="([-\\d.]+)"`, 'g'))].map((m) => Number(m[1]));
}

describe('the badge', () => {
  it.each([
    [100, '100%', '#4c1'],
    [90, '90%', '#4c1'],
    [89.9, '89%', '#dfb317'],
    [75, '75%', '#dfb317'],
    [74.9, '74%', '#e05d44'],
    [0.1, '0%', '#e05d44'],
    [0, '0%', '#e05d44'],
  ])('shows %s as %s in %s, as Weblate truncates and colors it', (percent, text, color) => {
    const svg = renderBadge(percent);
    expect(svg).toContain(`>${text}</text>`);
    expect(svg).toContain(`fill="${color}"`);
    expect(svg).toContain(`aria-label="translated: ${text}"`);
  });

  it('is as wide as its two labels and their padding, and holds each label to its measured length', () => {
    const svg = renderBadge(87.5);
    const [width] = numbers(svg, 'width');
    const label = Math.ceil(textWidth('translated', 11)) + 10;
    const value = Math.ceil(textWidth('87%', 11)) + 10;
    expect(width).toBe(label + value);
    const measured = (text: string) => Math.round(textWidth(text, 11) * 10) / 10;
    expect(numbers(svg, 'textLength')).toEqual([
      measured('translated'),
      measured('translated'),
      measured('87%'),
      measured('87%'),
    ]);
    for (const length of numbers(svg, 'textLength').slice(0, 2))
      expect(length).toBeLessThanOrEqual(label - 10);
  });

  it('writes the same bytes every time', () => {
    expect(renderBadge(42.1)).toBe(renderBadge(42.1));
    expect(renderBadge(42.1).endsWith('</svg>\n')).toBe(true);
  });
});

describe('the charts', () => {
  const rows: ChartRow[] = [
    {
      name: 'Czech',
      translated: 10,
      percent: 50,
      url: 'https://l10n.example.org/languages/cs/demo/',
    },
    {
      name: 'Arabic',
      translated: 20,
      percent: 90.5,
      url: 'https://l10n.example.org/languages/ar/demo/',
    },
    {
      name: 'German',
      translated: 0,
      percent: 100,
      url: 'https://l10n.example.org/languages/de/demo/',
    },
    {
      name: 'Esperanto',
      translated: 1,
      percent: 0.1,
      url: 'https://l10n.example.org/languages/eo/demo/',
    },
  ];

  it('leave out languages with nothing translated, one row each for the others in the order given', () => {
    const svg = renderChart('multi', 'auto', rows);
    expect(svg).not.toContain('German');
    expect([...svg.matchAll(/<title>([^<:]+):/g)].map((m) => m[1])).toEqual([
      'Czech',
      'Arabic',
      'Esperanto',
    ]);
    expect(svg).toContain('aria-label="Translation status of 3 languages"');
  });

  it('draw bars 1.5 pixels a percent, colored by the share with auto', () => {
    const svg = renderChart('multi', 'auto', rows);
    expect(numbers(svg, 'width').slice(1)).toEqual([75, 135, 0]);
    expect([...svg.matchAll(/rx="2" fill="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '#38f',
      '#2eccaa',
      '#f6664c',
    ]);
    expect(renderChart('horizontal', 'red', rows)).not.toMatch(/fill="#(38f|2eccaa|f6664c)"/);
    expect(renderChart('horizontal', 'red', rows)).toContain('fill="#fa3939"');
  });

  it('link each row to its page and size the name column to the longest name, at least 190 pixels', () => {
    const svg = renderChart('multi', 'blue', [
      { name: 'A'.repeat(60), translated: 1, percent: 1, url: 'https://x.test/a/' },
    ]);
    const nameWidth = Math.ceil(textWidth('A'.repeat(60), 11)) + 5;
    expect(nameWidth).toBeGreaterThan(190);
    expect(numbers(svg, 'width')[0]).toBe(nameWidth + 210);
    expect(svg).toContain('<a href="https://x.test/a/">');
    expect(numbers(renderChart('multi', 'blue', rows), 'width')[0]).toBe(190 + 210);
  });

  it('escape names and links', () => {
    const svg = renderChart('multi', 'green', [
      { name: 'A <b> & "c"', translated: 1, percent: 1, url: 'https://x.test/?a=1&b=2' },
    ]);
    expect(svg).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).toContain('href="https://x.test/?a=1&amp;b=2"');
  });
});

describe('text widths in DejaVu Sans', () => {
  it('add up the advances of the characters, an unknown one as one em', () => {
    expect(textWidth('', 11)).toBe(0);
    expect(textWidth('ii', 11)).toBeCloseTo(2 * textWidth('i', 11));
    expect(textWidth('W', 11)).toBeGreaterThan(textWidth('i', 11));
    expect(textWidth('日', 11)).toBe(11);
    expect(textWidth('Čeština', 11)).toBeGreaterThan(textWidth('Cestina', 11) - 0.001);
  });
});
