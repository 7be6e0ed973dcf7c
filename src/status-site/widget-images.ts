/**
 * The drawings of Weblate's bitmap widgets, as SVG for png.ts to rasterise:
 * the big status badge (`287x66`: strings, languages, translated), the small
 * one (`88x31`: translated) in Weblate's colors (`grey`, `white`, `black`),
 * and a project's Open Graph image (1200×630: its name and the same three
 * figures). Weblate draws its text on fixed background images; these draw
 * the backgrounds too. Pure: figures in, SVG text out.
 */
import type { BitmapColor, BitmapSize } from '../api/urls.ts';
import { escapeHtml } from './html.ts';
import { textWidth } from './text-width.ts';

/** What the bitmap widgets say of an object. */
export interface WidgetFigures {
  /** Source strings. */
  strings: number;
  languages: number;
  /** The translated share, as the API gives it. */
  percent: number;
}

/** A bitmap widget's drawing: columns of a figure over its upper-case label, as Weblate lays them out. */
export function renderBitmapWidget(
  size: BitmapSize,
  color: BitmapColor,
  figures: WidgetFigures,
): string {
  const [width, height] = size === '287x66' ? [287, 66] : [88, 31];
  const percent = `${Math.trunc(figures.percent)}%`;
  const columns: [string, string][] =
    size === '287x66'
      ? [
          [formatCount(figures.strings), figures.strings === 1 ? 'STRING' : 'STRINGS'],
          [formatCount(figures.languages), figures.languages === 1 ? 'LANGUAGE' : 'LANGUAGES'],
          [percent, 'TRANSLATED'],
        ]
      : [[percent, 'TRANSLATED']];
  const [head, foot, headY, footY] = size === '287x66' ? [15, 10, 30, 49] : [10.5, 7, 13, 25];
  const ink = color === 'black' ? '#fff' : '#000';
  const column = width / columns.length;
  const body = columns.map(([figure, label], i) => {
    const x = round(column * i + column / 2);
    const line =
      i > 0 && size === '287x66'
        ? `<path d="M${round(column * i)} 10V56" stroke="${ink}" stroke-width=".5"/>`
        : '';
    return (
      line +
      fitted(figure, x, headY, head, column - 4, 'bold') +
      fitted(label, x, footY, foot, column - 4, 'normal')
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="translated: ${percent}">` +
    `<rect x=".5" y=".5" width="${width - 1}" height="${height - 1}" rx="3" fill="${BACKGROUNDS[color]}" stroke="${BORDERS[color]}"/>` +
    `<g fill="${ink}" text-anchor="middle" font-family="DejaVu Sans">${body.join('')}</g></svg>\n`
  );
}

/** A project's Open Graph image: "Project <name>" over its three figures. */
export function renderOpenGraph(name: string, figures: WidgetFigures): string {
  const columns: [string, string][] = [
    [formatCount(figures.strings), figures.strings === 1 ? 'STRING' : 'STRINGS'],
    [formatCount(figures.languages), figures.languages === 1 ? 'LANGUAGE' : 'LANGUAGES'],
    [`${Math.trunc(figures.percent)}%`, 'TRANSLATED'],
  ];
  const body = columns.map(
    ([figure, label], i) =>
      fitted(figure, 265 + 230 * i + 115, 390, 42, 220, 'bold') +
      fitted(label, 265 + 230 * i + 115, 425, 18, 220, 'normal'),
  );
  const title = fitted(`Project ${name}`, 600, 220, 52, 1080, 'bold');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" role="img" aria-label="Project ${escapeHtml(name)}">` +
    `<rect width="1200" height="630" fill="#1b3a57"/><rect y="560" width="1200" height="70" fill="#2eccaa"/>` +
    `<g fill="#fff" text-anchor="middle" font-family="DejaVu Sans">${title}${body.join('')}</g></svg>\n`
  );
}

// --- internal ---

const BACKGROUNDS: Readonly<Record<BitmapColor, string>> = {
  grey: '#e6e6e6',
  white: '#ffffff',
  black: '#222222',
};
const BORDERS: Readonly<Record<BitmapColor, string>> = {
  grey: '#bdbdbd',
  white: '#bdbdbd',
  black: '#000000',
};

/**
 * A line of text centred on `x`, held to its DejaVu Sans width (the bold
 * face is about a tenth wider) and squeezed into `room` when longer.
 */
function fitted(
  text: string,
  x: number,
  y: number,
  size: number,
  room: number,
  weight: 'bold' | 'normal',
): string {
  const natural = textWidth(text, size) * (weight === 'bold' ? 1.1 : 1);
  const length = round(Math.min(natural, room));
  const bold = weight === 'bold' ? ' font-weight="bold"' : '';
  return `<text x="${x}" y="${y}" font-size="${size}"${bold} textLength="${length}" lengthAdjust="spacingAndGlyphs">${escapeHtml(text)}</text>`;
}

/** A count with thousands separated by commas, as Weblate's number_format with grouping. */
function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
