// Cells read by the shape of their ink, not by one skin's pixels: a cell's ink is cut out as a glyph (as the mine
// counter's are, counter/glyphs.ts), reduced to a shape, and compared with a bank of shapes: the digits 1-8, the
// question mark and a flag set in many fonts, and the counts, flags, question marks and mines of every built-in
// skin (skins/symbols.json, made by scripts/build-symbols.js). A symbol is what the nearest shape shows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Cell, Grid, RgbaImage } from '../common/types';
import { ASPECT_WEIGHT, shapeOf, wordsIn } from '../counter/glyphs';
import { BUILTIN_SKINS } from '../common/paths';
import { cellLeft, cellTop } from '../image/pixels';

/**
 * A cell's symbol is looked for in its box less this share of the pitch on each side: its borders are erased as
 * lines running end to end, and a digit as tall as the cell is still not cut.
 */
export const GLYPH_INSET = 0.04;

/** Ink cut by the box's edge up to this share of the glyph's height is a speck of the cell's border, not a symbol. */
const SPECK = 0.34;

/** The symbol a cell's ink is shaped like (a label of the board text), and the next likeliest other symbol. */
export interface SymbolShape {
  label: Cell;
  distance: number;
  runnerUp: Cell;
  runnerUpDistance: number;
}

/** Every shape of the bank, its cells row by row in one array. */
interface Bank {
  labels: Cell[];
  skins: (string | undefined)[];
  aspects: Float64Array;
  cells: Float32Array;
}

let bank: Bank | null = null;

function shapeBank(): Bank {
  if (bank) return bank;
  const { shapes } = JSON.parse(readFileSync(path.join(BUILTIN_SKINS, 'symbols.json'), 'utf8')) as {
    shapes: { label: string; skin?: string; aspect: number; cells: string }[];
  };
  const cells = new Float32Array(shapes.length * SHAPE_CELLS);
  shapes.forEach((s, k) => {
    const bytes = Buffer.from(s.cells, 'base64');
    for (let i = 0; i < SHAPE_CELLS; i++) cells[k * SHAPE_CELLS + i] = bytes[i] / 255;
  });
  bank = {
    labels: shapes.map((s) => s.label),
    skins: shapes.map((s) => s.skin),
    aspects: Float64Array.from(shapes, (s) => s.aspect),
    cells,
  };
  return bank;
}

/** Cells of a glyph shape (counter/glyphs.ts shapeOf: 8×12). */
const SHAPE_CELLS = 96;

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
  const whole = glyphs.filter((g) => !g.clipped);
  // specks at the box's edge (a bevel's corner) aside, the cell holds one glyph, not cut by the box
  if (whole.length !== 1 || glyphs.some((g) => g.clipped && g.rect.height > SPECK * whole[0].rect.height)) return null;
  const shape = shapeOf(whole[0]);
  const { labels, skins, aspects, cells } = shapeBank();
  const nearest = new Map<Cell, number>();
  // shapeDistance, each sum ended once it is past the nearest of its label so far
  for (let k = 0; k < labels.length; k++) {
    if (skins[k] && except.includes(skins[k] as string)) continue;
    const best = nearest.get(labels[k]) ?? Infinity;
    const penalty = ASPECT_WEIGHT * Math.abs(Math.log(shape.aspect / aspects[k]));
    if (penalty >= best) continue;
    const limit = (best - penalty) * SHAPE_CELLS;
    let sum = 0;
    for (let i = 0, at = k * SHAPE_CELLS; i < SHAPE_CELLS && sum < limit; i++)
      sum += Math.abs(shape.cells[i] - cells[at + i]);
    const d = sum / SHAPE_CELLS + penalty;
    if (d < best) nearest.set(labels[k], d);
  }
  const [first, second] = [...nearest].sort((a, b) => a[1] - b[1]);
  if (!first || !second) return null;
  return { label: first[0], distance: first[1], runnerUp: second[0], runnerUpDistance: second[1] };
}
