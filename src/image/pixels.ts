import type { Grid, RgbaImage, Side } from '../common/types';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { floor, round } = Math;

/** Left edge of a column, and top edge of a row: the grid's own edges when it has them. */
export const cellLeft = (grid: Grid, col: number): number => grid.lefts?.[col] ?? grid.left + col * grid.pitchX;
export const cellTop = (grid: Grid, row: number): number => grid.tops?.[row] ?? grid.top + row * grid.pitchY;

/** The grid's outer edges in the image: its first column's left, its last column's right, and so on. */
export function gridEdges(grid: Grid): { left: number; top: number; right: number; bottom: number } {
  return {
    left: cellLeft(grid, 0),
    top: cellTop(grid, 0),
    right: cellLeft(grid, grid.cols - 1) + grid.pitchX,
    bottom: cellTop(grid, grid.rows - 1) + grid.pitchY,
  };
}

/** The grid moved by (dx, dy) pixels. */
export function shiftGrid(grid: Grid, dx: number, dy: number): Grid {
  const moved: Grid = { ...grid, left: grid.left + dx, top: grid.top + dy };
  if (grid.lefts) moved.lefts = grid.lefts.map((x) => x + dx);
  if (grid.tops) moved.tops = grid.tops.map((y) => y + dy);
  return moved;
}

/** The whole image as one cell: how templates are sampled. */
export function wholeGrid(image: RgbaImage): Grid {
  return { rows: 1, cols: 1, left: 0, top: 0, pitchX: image.width, pitchY: image.height };
}

/** The image shrunk by a whole factor: each k×k block becomes its average. */
export function shrinkImage(image: RgbaImage, k: number): RgbaImage {
  const width = floor(image.width / k);
  const height = floor(image.height / k);
  const data = new Uint8Array(width * height * 4);
  const sums = new Float64Array(width * 4);
  const area = k * k;
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < k; dy++) {
      const row = (y * k + dy) * image.width * 4;
      for (let x = 0; x < width * k; x++) {
        const at = ((x / k) | 0) * 4;
        const p = row + x * 4;
        sums[at] += image.data[p];
        sums[at + 1] += image.data[p + 1];
        sums[at + 2] += image.data[p + 2];
      }
    }
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      data[p] = round(sums[x * 4] / area);
      data[p + 1] = round(sums[x * 4 + 1] / area);
      data[p + 2] = round(sums[x * 4 + 2] / area);
      data[p + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Grid coordinates multiplied by `k` (from a shrunk image back to the original). */
export function scaleGrid(grid: Grid, k: number): Grid {
  const scaled: Grid = {
    ...grid,
    left: grid.left * k,
    top: grid.top * k,
    pitchX: grid.pitchX * k,
    pitchY: grid.pitchY * k,
  };
  if (grid.lefts) scaled.lefts = grid.lefts.map((x) => x * k);
  if (grid.tops) scaled.tops = grid.tops.map((y) => y * k);
  return scaled;
}

/** The grid one row or column bigger on `side`; per-line edges, where placed, go on at the pitch. */
export function grownGrid(g: Grid, side: Side): Grid {
  const grid: Grid = { ...g };
  if (side === 'left' || side === 'right') {
    grid.cols = g.cols + 1;
    if (side === 'left') grid.left = g.left - g.pitchX;
    if (g.lefts)
      grid.lefts =
        side === 'left' ? [g.lefts[0] - g.pitchX, ...g.lefts] : [...g.lefts, g.lefts[g.lefts.length - 1] + g.pitchX];
  } else {
    grid.rows = g.rows + 1;
    if (side === 'top') grid.top = g.top - g.pitchY;
    if (g.tops)
      grid.tops =
        side === 'top' ? [g.tops[0] - g.pitchY, ...g.tops] : [...g.tops, g.tops[g.tops.length - 1] + g.pitchY];
  }
  return grid;
}

/** Whether two grids are the same: size, place, pitch and every line. */
export function sameGrid(a: Grid, b: Grid): boolean {
  return (
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.left === b.left &&
    a.top === b.top &&
    a.pitchX === b.pitchX &&
    a.pitchY === b.pitchY &&
    sameLines(a.lefts, b.lefts) &&
    sameLines(a.tops, b.tops)
  );
}

function sameLines(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
