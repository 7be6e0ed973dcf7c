/**
 * How wide a line of text is in DejaVu Sans, the font the badges declare
 * first: the advance widths shipped in data/fonts/dejavu-sans-widths.json
 * (made by scripts/convert-font-widths.ts). A character outside the table
 * counts as one em, wider than any glyph of the scripts it leaves out.
 */
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-files.ts';

interface WidthTable {
  unitsPerEm: number;
  /** Runs of consecutive characters: the first code point, then each one's advance. */
  runs: number[][];
}

/** The width in pixels of `text` set in DejaVu Sans at `size` pixels. */
export function textWidth(text: string, size: number): number {
  const { unitsPerEm, advances } = widths();
  let units = 0;
  for (const char of text) units += advances.get(char.codePointAt(0)!) ?? unitsPerEm;
  return (units * size) / unitsPerEm;
}

// --- internal ---

let loaded: { unitsPerEm: number; advances: Map<number, number> } | null = null;

/** The table, read once per process (it never changes while the process runs). */
function widths(): { unitsPerEm: number; advances: Map<number, number> } {
  if (loaded) return loaded;
  const file = packageFile('data/fonts/dejavu-sans-widths.json');
  const table = JSON.parse(readFileSync(file, 'utf8')) as WidthTable;
  const advances = new Map<number, number>();
  for (const [first, ...run] of table.runs)
    run.forEach((advance, i) => advances.set(first! + i, advance));
  return (loaded = { unitsPerEm: table.unitsPerEm, advances });
}
