/**
 * Dev-time tool: reads the advance widths of a TrueType font (DejaVu Sans,
 * Debian's fonts-dejavu-core) and writes the compact table the badges use to
 * size their labels, data/fonts/dejavu-sans-widths.json.
 *
 *   npx tsx scripts/convert-font-widths.ts /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
 *
 * Only widths are kept (no outlines): for each character of the ranges below
 * that the font maps, its advance in font units. Nothing reads the font at
 * run time.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic and general punctuation: what language names and labels use. */
const RANGES: readonly [number, number][] = [
  [0x20, 0x24f],
  [0x370, 0x52f],
  [0x530, 0x58f],
  [0x590, 0x6ff],
  [0x2000, 0x206f],
];

const input = process.argv[2];
if (!input) {
  console.error('usage: tsx scripts/convert-font-widths.ts <font.ttf>');
  process.exit(1);
}
const font = readFileSync(input);
const tables = readTableDirectory(font);
const unitsPerEm = font.readUInt16BE(table('head') + 18);
const metrics = font.readUInt16BE(table('hhea') + 34);
const glyphOf = readCmap(font, table('cmap'));
const advance = (glyph: number) =>
  font.readUInt16BE(table('hmtx') + 4 * Math.min(glyph, metrics - 1));

// Runs of consecutive characters: [first code point, width, width, ...].
const runs: number[][] = [];
let maxAdvance = 0;
for (const [from, to] of RANGES) {
  let run: number[] | null = null;
  for (let code = from; code <= to; code++) {
    const glyph = glyphOf(code);
    if (glyph === 0) {
      run = null;
      continue;
    }
    const width = advance(glyph);
    maxAdvance = Math.max(maxAdvance, width);
    if (!run) runs.push((run = [code]));
    run.push(width);
  }
}
const output = { font: 'DejaVu Sans', unitsPerEm, maxAdvance, runs };
writeFileSync(
  new URL('../data/fonts/dejavu-sans-widths.json', import.meta.url),
  JSON.stringify(output) + '\n',
);
console.log(
  `${runs.reduce((n, r) => n + r.length - 1, 0)} characters in ${runs.length} runs, ${unitsPerEm} units per em`,
);

function readTableDirectory(data: Buffer): Map<string, number> {
  const count = data.readUInt16BE(4);
  const offsets = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    offsets.set(data.toString('latin1', record, record + 4), data.readUInt32BE(record + 8));
  }
  return offsets;
}

function table(tag: string): number {
  const offset = tables.get(tag);
  if (offset === undefined) throw new Error(`the font has no ${tag} table`);
  return offset;
}

/** The glyph of a BMP code point, from the cmap's format 4 subtable (0 when unmapped). */
function readCmap(data: Buffer, cmap: number): (code: number) => number {
  const count = data.readUInt16BE(cmap + 2);
  for (let i = 0; i < count; i++) {
    const record = cmap + 4 + 8 * i;
    const [platform, encoding] = [data.readUInt16BE(record), data.readUInt16BE(record + 2)];
    const sub = cmap + data.readUInt32BE(record + 4);
    if (platform === 3 && encoding === 1 && data.readUInt16BE(sub) === 4) return format4(data, sub);
  }
  throw new Error('the font has no Unicode BMP cmap (platform 3, encoding 1, format 4)');
}

function format4(data: Buffer, sub: number): (code: number) => number {
  const segments = data.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  return (code) => {
    for (let s = 0; s < segments; s++) {
      if (code > data.readUInt16BE(ends + 2 * s)) continue;
      const start = data.readUInt16BE(starts + 2 * s);
      if (code < start) return 0;
      const delta = data.readInt16BE(deltas + 2 * s);
      const rangeOffset = data.readUInt16BE(rangeOffsets + 2 * s);
      if (rangeOffset === 0) return (code + delta) & 0xffff;
      const glyph = data.readUInt16BE(rangeOffsets + 2 * s + rangeOffset + 2 * (code - start));
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}
