// A board read again where a frame changed (a watch: serve/watch.ts): the cells whose pixels changed, and their
// neighbours (a 0 is trusted only when no neighbour is closed), read with the skin and grid that read the board
// before; the rest keep their readings. The reading is judged as a whole one is: too far from the skin, or too
// much unreadable, and it is refused (null), so the caller reads the frame from scratch.
import type { Coord, Grid, RgbaImage } from '../common/types';
import { classify } from './classify';
import {
  distances,
  distrustLoneZeros,
  MAX_UNREADABLE,
  POOR_FIT,
  rereadOnPixels,
  skinFit,
  type SkinReading,
  unreadableShare,
} from './read';
import { SKINLESS } from './skinless';
import { mean } from '../common/stats';

/** `read` with the cells `changed` (and their neighbours) read again on `image`; null when it no longer reads. */
export function rereadCells(image: RgbaImage, read: SkinReading, changed: Coord[]): SkinReading | null {
  const { grid, skin } = read;
  if (skin.name === SKINLESS || read.readings.length !== grid.rows * grid.cols) return null;
  // 0s distrusted before are read again too, so that each is judged on its neighbours as they read now
  const distrusted = read.readings.filter((r) => r.unreadable && r.best === '0').map((r): Coord => [r.row, r.col]);
  const fresh = classify(image, grid, skin, {
    cells: withNeighbours(grid, [...changed, ...distrusted], changed.length),
  });
  const readings = read.readings.slice();
  for (const r of fresh) readings[r.row * grid.cols + r.col] = r;
  // as read.ts reads a whole board: 0s beside closed cells distrusted, then unreadable cells read on their pixels
  const again = rereadOnPixels(image, { ...read, readings: distrustLoneZeros(grid, readings) });
  const meanDistance = mean(distances(again));
  if (meanDistance > POOR_FIT * skin.maxDistance || unreadableShare(again) > MAX_UNREADABLE) return null;
  return { ...read, readings: again, fit: skinFit(meanDistance, skin) };
}

/** The cells and every neighbour of the first `around` of them, each once, row by row. */
export function withNeighbours(grid: Grid, cells: Coord[], around = cells.length): Coord[] {
  const marked = new Uint8Array(grid.rows * grid.cols);
  for (const [row, col] of cells.slice(around)) marked[row * grid.cols + col] = 1;
  for (const [row, col] of cells.slice(0, around))
    for (let r = Math.max(0, row - 1); r <= Math.min(grid.rows - 1, row + 1); r++)
      for (let c = Math.max(0, col - 1); c <= Math.min(grid.cols - 1, col + 1); c++) marked[r * grid.cols + c] = 1;
  const out: Coord[] = [];
  for (let i = 0; i < marked.length; i++) if (marked[i]) out.push([Math.floor(i / grid.cols), i % grid.cols]);
  return out;
}
