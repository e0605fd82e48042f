// Cells read by the shape of their ink, not by one skin's pixels: a cell's ink is cut out as a glyph (as the mine
// counter's are, counter/glyphs.ts), reduced to a shape, and compared with a bank of shapes: the digits 1-8, the
// question mark and a flag set in many fonts, and the counts, flags, question marks and mines of every built-in
// skin (skins/symbols.json, made by scripts/build-symbols.js). A symbol is what the nearest shape shows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Cell, GlyphShape, Grid, RgbaImage } from '../common/types';
import { shapeDistance, shapeOf, wordsIn } from '../counter/glyphs';
import { BUILTIN_SKINS } from '../common/paths';
import { cellLeft, cellTop } from '../image/pixels';

/**
 * A cell's symbol is looked for in its box less this share of the pitch on each side: its borders are erased as
 * lines running end to end, and a digit as tall as the cell is still not cut.
 */
export const GLYPH_INSET = 0.04;

/** The symbol a cell's ink is shaped like (a label of the board text), and the next likeliest other symbol. */
export interface SymbolShape {
  label: Cell;
  distance: number;
  runnerUp: Cell;
  runnerUpDistance: number;
}

interface BankShape extends GlyphShape {
  label: Cell;
  /** The built-in skin it was cut from; none for a font's. */
  skin?: string;
}

let bank: BankShape[] | null = null;

function shapeBank(): BankShape[] {
  if (bank) return bank;
  const file = JSON.parse(readFileSync(path.join(BUILTIN_SKINS, 'symbols.json'), 'utf8')) as {
    shapes: { label: string; skin?: string; aspect: number; cells: string }[];
  };
  bank = file.shapes.map((s) => ({
    label: s.label,
    skin: s.skin,
    aspect: s.aspect,
    height: 0,
    cells: Float32Array.from(Buffer.from(s.cells, 'base64'), (v) => v / 255),
  }));
  return bank;
}

/**
 * The symbol the ink of cell (row, col) is shaped like, or null when the cell holds no single whole glyph. The
 * shapes of the skins in `except` are left out (a look read as if it were never taught).
 */
export function symbolShape(
  image: RgbaImage,
  grid: Grid,
  row: number,
  col: number,
  except: readonly string[] = [],
): SymbolShape | null {
  const box = {
    left: Math.round(cellLeft(grid, col) + GLYPH_INSET * grid.pitchX),
    top: Math.round(cellTop(grid, row) + GLYPH_INSET * grid.pitchY),
    width: Math.round(grid.pitchX * (1 - 2 * GLYPH_INSET)),
    height: Math.round(grid.pitchY * (1 - 2 * GLYPH_INSET)),
  };
  const glyphs = wordsIn(image, box).flat();
  if (glyphs.length !== 1 || glyphs[0].clipped) return null;
  const shape = shapeOf(glyphs[0]);
  const nearest = new Map<Cell, number>();
  for (const b of shapeBank()) {
    if (b.skin && except.includes(b.skin)) continue;
    const d = shapeDistance(shape, b);
    if (d < (nearest.get(b.label) ?? Infinity)) nearest.set(b.label, d);
  }
  const [first, second] = [...nearest].sort((a, b) => a[1] - b[1]);
  if (!first || !second) return null;
  return { label: first[0], distance: first[1], runnerUp: second[0], runnerUpDistance: second[1] };
}
