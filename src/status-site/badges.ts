/**
 * Weblate's badge and language charts as SVG (trans/widgets.py): the badge
 * shows the translated share truncated to a whole percent, green from 90,
 * yellow from 75, red below; the charts draw one bar per language with
 * anything translated, by language name, each row a link to its page. Text
 * is sized for DejaVu Sans, the font the images declare first, and held to
 * that length (`textLength`), so a label never leaves its box whatever font
 * the viewer has. Pure: numbers and names in, SVG text out.
 */
import type { ChartColor, ChartKind } from '../api/urls.ts';
import { compareStrings } from '../errors.ts';
import { escapeHtml } from './html.ts';
import { textWidth } from './text-width.ts';

/** One language's row of a chart. */
export interface ChartRow {
  name: string;
  /** Strings translated: a language with none is left out, as Weblate does. */
  translated: number;
  /** The translated share, as the API gives it (one decimal). */
  percent: number;
  /** Absolute URL of the row's page. */
  url: string;
}

/** The badge: `translated` and the share, in Weblate's colors. */
export function renderBadge(percent: number): string {
  const color = percent >= 90 ? '#4c1' : percent >= 75 ? '#dfb317' : '#e05d44';
  return shield('translated', `${Math.trunc(percent)}%`, color);
}

/** The language badge: how many languages the project is translated into, in the same shape. */
export function renderLanguageBadge(languages: number): string {
  return shield('languages', String(languages), '#3e7dbf');
}

/** One cell of the matrix: a component's share in a language. */
interface MatrixCell {
  component: string;
  language: string;
  percent: number;
}

/**
 * The matrix: a row per component and a column per language (both by name),
 * each cell the share truncated to a whole percent, filled in the color
 * asked for (`auto`: by the share, as the charts). A missing translation is
 * an empty cell. One matrix in each of `colors`: they differ only in each
 * cell's fill, so the text is made once, in parts around the fills.
 */
export function renderMatrices(
  colors: readonly ChartColor[],
  cells: readonly MatrixCell[],
): string[] {
  const components = [...new Set(cells.map((cell) => cell.component))].sort(compareStrings);
  const languages = [...new Set(cells.map((cell) => cell.language))].sort(compareStrings);
  const labelWidth =
    Math.ceil(Math.max(60, ...components.map((c) => textWidth(c, FONT_SIZE)))) + 10;
  const headHeight = Math.ceil(Math.max(40, ...languages.map((l) => textWidth(l, FONT_SIZE)))) + 10;
  const width = labelWidth + languages.length * CELL;
  const height = headHeight + components.length * CELL;
  const byKey = new Map(cells.map((cell) => [`${cell.component}\n${cell.language}`, cell]));
  const heads = languages.map((language, i) => {
    const x = labelWidth + i * CELL + CELL / 2 + 4;
    return `<text transform="rotate(-90)" x="${-headHeight + 5}" y="${x}" textLength="${round(textWidth(language, FONT_SIZE))}" lengthAdjust="spacingAndGlyphs">${escapeHtml(language)}</text>`;
  });
  const title = `Translation status of ${components.length} ${components.length === 1 ? 'component' : 'components'} in ${languages.length} ${languages.length === 1 ? 'language' : 'languages'}`;
  // The text between fills, and the share each fill is for.
  const between: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${title}">` +
      `<title>${title}</title>` +
      `<g font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}" fill="#808080">${heads.join('')}`,
  ];
  const shares: number[] = [];
  components.forEach((component, row) => {
    const y = headHeight + row * CELL;
    between[between.length - 1] +=
      `<text x="${labelWidth - 5}" y="${y + 21}" text-anchor="end" textLength="${round(textWidth(component, FONT_SIZE))}" lengthAdjust="spacingAndGlyphs">${escapeHtml(component)}</text>`;
    languages.forEach((language, i) => {
      const cell = byKey.get(`${component}\n${language}`);
      if (!cell) return;
      const whole = Math.trunc(cell.percent);
      const x = labelWidth + i * CELL;
      between[between.length - 1] +=
        `<g><title>${escapeHtml(component)}, ${escapeHtml(language)}: ${whole}%</title>` +
        `<rect x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}" rx="2" fill="`;
      shares.push(cell.percent);
      between.push(
        `"/><text x="${x + CELL / 2}" y="${y + 21}" text-anchor="middle" fill="#fff" font-size="10">${whole}</text></g>`,
      );
    });
  });
  return colors.map((color) => {
    let svg = between[0]!;
    for (let i = 0; i < shares.length; i++) svg += barColor(color, shares[i]!) + between[i + 1]!;
    return svg + `</g></svg>\n`;
  });
}

/**
 * A chart of the languages' translated shares: `multi` a row per language,
 * `horizontal` a column per language, in the color asked for (`auto`: by the
 * share, as Weblate's percent colors).
 */
export function renderChart(kind: ChartKind, color: ChartColor, rows: readonly ChartRow[]): string {
  return renderCharts(kind, [color], rows)[0]!;
}

/**
 * The chart of one kind in each of `colors`. The colors differ only in each
 * bar's fill, so each row is written once, in two parts around it.
 */
export function renderCharts(
  kind: ChartKind,
  colors: readonly ChartColor[],
  rows: readonly ChartRow[],
): string[] {
  const shown = rows.filter((row) => row.translated > 0);
  const nameWidth = Math.max(
    190,
    Math.ceil(Math.max(0, ...shown.map((row) => textWidth(row.name, FONT_SIZE)))) + 5,
  );
  const title = `Translation status of ${shown.length} ${shown.length === 1 ? 'language' : 'languages'}`;
  const parts = shown.map((row, i) => chartRow(kind, row, i, nameWidth));
  const [width, height] =
    kind === 'multi'
      ? [nameWidth + 210, shown.length * 15 + 15]
      : [shown.length * 15 + 15, nameWidth + 175];
  const head =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<g font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}" fill="#808080">`;
  return colors.map((color) => {
    let body = head;
    for (let i = 0; i < parts.length; i++)
      body += parts[i]![0] + barColor(color, shown[i]!.percent) + parts[i]![1];
    return body + `</g></svg>\n`;
  });
}

// --- internal ---

const FONT_FAMILY = 'DejaVu Sans,Verdana,Geneva,sans-serif';
const FONT_SIZE = 11;
/** A matrix cell's side, in pixels. */
const CELL = 30;

/** Text width and 5 pixels each side, whole pixels. */
function boxWidth(text: string): number {
  return Math.ceil(textWidth(text, FONT_SIZE)) + 10;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Weblate's badge shape: a grey label and a colored value, each boxed to its text. */
function shield(label: string, value: string, color: string): string {
  const labelWidth = boxWidth(label);
  const valueWidth = boxWidth(value);
  const width = labelWidth + valueWidth;
  const text = (content: string, x: number) => {
    const length = round(textWidth(content, FONT_SIZE));
    const attributes = `x="${x}" textLength="${length}" lengthAdjust="spacingAndGlyphs"`;
    return `<text ${attributes} y="15" fill="#010101" fill-opacity=".3">${content}</text><text ${attributes} y="14">${content}</text>`;
  };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${label}: ${value}">` +
    `<title>${label}: ${value}</title>` +
    `<linearGradient id="shine" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="round"><rect width="${width}" height="20" rx="3"/></clipPath>` +
    `<g clip-path="url(#round)"><rect width="${labelWidth}" height="20" fill="#555"/>` +
    `<rect x="${labelWidth}" width="${valueWidth}" height="20" fill="${color}"/><rect width="${width}" height="20" fill="url(#shine)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}">` +
    text(label, round(labelWidth / 2)) +
    text(value, round(labelWidth + valueWidth / 2)) +
    `</g></svg>\n`
  );
}

/** A chart's row, in two parts: before its bar's fill color and after it. */
function chartRow(
  kind: ChartKind,
  row: ChartRow,
  index: number,
  nameWidth: number,
): [string, string] {
  const offset = 20 + 15 * index;
  const whole = Math.trunc(row.percent);
  const bar = Math.trunc(row.percent * 1.5);
  const name = escapeHtml(row.name);
  const nameLength = round(textWidth(row.name, FONT_SIZE));
  const link = `<a href="${escapeHtml(row.url)}"><title>${name}: ${whole}%</title>`;
  if (kind === 'multi') {
    return [
      link +
        `<text x="${nameWidth}" y="${offset}" text-anchor="end" textLength="${nameLength}" lengthAdjust="spacingAndGlyphs">${name}</text>` +
        `<rect x="${nameWidth + 10}" y="${offset - 6}" width="${bar}" height="6" rx="2" fill="`,
      `"/><text x="${nameWidth + 170}" y="${offset}">${whole}%</text></a>`,
    ];
  }
  return [
    link +
      `<text transform="rotate(-90)" x="-170" y="${offset}" text-anchor="end" textLength="${nameLength}" lengthAdjust="spacingAndGlyphs">${name}</text>` +
      `<rect x="${offset - 6}" y="${10 + Math.trunc((100 - row.percent) * 1.5)}" width="6" height="${bar}" rx="2" fill="`,
    `"/></a>`,
  ];
}

/** Weblate's chart colors: fixed ones, or by the share (85 and up, 50 and up, below). */
function barColor(color: ChartColor, percent: number): string {
  if (color !== 'auto') return { red: '#fa3939', green: '#3fed48', blue: '#3f85ed' }[color];
  return percent >= 85 ? '#2eccaa' : percent >= 50 ? '#38f' : '#f6664c';
}
