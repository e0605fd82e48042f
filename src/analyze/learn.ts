import type { Board, Cell, FramePrint, Grid, RgbaImage, Side, Skin, Template } from '../common/types';
import { framePrints, mergePrints } from '../locate/frame';
import { analyzeImage } from './analyze';
import { decode } from '../image/decode';
import { locate } from '../locate/locate';
import { cropGrid, fitGrid } from '../locate/grid';
import { lineAligned } from '../read/align';
import { cellLeft, cellTop } from '../image/pixels';
import { cellPatch, Patch, rmsDistance } from '../image/patch';

export const DEFAULT_THRESHOLDS = { inset: 0.12, maxDistance: 45, maxRatio: 0.7 };
const MAX_SAMPLES = 12;
/** A sample joins its label's templates only if it differs this much (RMS) from every one kept so far. */
const MIN_SPREAD = 6;

export class LearnError extends Error {}

export interface LearnSource {
  image: string | Buffer;
  board: Board;
}

/**
 * Builds a skin from screenshots and their board texts: per label and cell size, a few samples that
 * differ most. Templates keep their native size (a game draws small cells with other glyphs, not scaled
 * ones); the match threshold grows with how far training cells sit from their own label's templates.
 */
export async function learn(sources: LearnSource[], name: string): Promise<Skin> {
  const cells: { label: Cell; image: RgbaImage }[] = [];
  for (const source of sources) cells.push(...(await cutCells(source)));
  const groups = new Map<string, { label: Cell; images: RgbaImage[] }>();
  for (const c of cells) {
    const key = `${c.label} ${c.image.width}`;
    const group = groups.get(key) ?? { label: c.label, images: [] };
    group.images.push(c.image);
    groups.set(key, group);
  }
  const templates: Template[] = [];
  let spread = 0;
  for (const [, { label, images }] of [...groups].sort()) {
    const { kept, farthest } = spreadSamples(images, DEFAULT_THRESHOLDS.inset);
    templates.push(...kept.map((image) => ({ label, image })));
    spread = Math.max(spread, farthest);
  }
  const cellSize = Math.max(...templates.map((t) => t.image.width));
  const maxDistance = Math.max(DEFAULT_THRESHOLDS.maxDistance, Math.round(2 * spread));
  const skin: Skin = { name, cellSize, ...DEFAULT_THRESHOLDS, maxDistance, templates };
  const frames = mergePrints(await Promise.all(sources.map((source) => printsAsRead(source, skin))));
  return Object.keys(frames).length ? { ...skin, frames } : skin;
}

/**
 * The frame beyond the capture's board, as a reading with the skin learned sees it: beyond the grid it reads
 * (whose edges can lie a pixel or two from those the templates were cut on). None when it does not read.
 */
async function printsAsRead(source: LearnSource, skin: Skin): Promise<Partial<Record<Side, FramePrint>>> {
  const { analysis, image } = await analyzeImage(source.image, 'capture', { skin, reasons: false });
  return analysis.grid && image && analysis.status !== 'error' ? framePrints(image, analysis.grid) : {};
}

async function cutCells({ image: input, board }: LearnSource): Promise<{ label: Cell; image: RgbaImage }[]> {
  const image = await decode(input);
  const fitted = fitGrid(image, await locate(image));
  const grid = placeBoard(image, [lineAligned(image, fitted), fitted], board);
  const pitch = (grid.pitchX + grid.pitchY) / 2;
  const out = [];
  for (let row = 0; row < grid.rows; row++) {
    for (let col = 0; col < grid.cols; col++) {
      out.push({ label: board.cells[row][col], image: cutCell(image, grid, row, col, Math.round(pitch)) });
    }
  }
  return out;
}

/**
 * Where the board text lies in the grid found: the grid itself when their sizes agree. A grid found larger
 * (a frame drawn on the board's lattice: KMines' fence) holds the text where cells of one label look most
 * alike, if that place is clearly better than any other and its cells do look alike; else the text does
 * not match the image.
 */
function placeBoard(image: RgbaImage, grids: Grid[], board: Board): Grid {
  const [grid] = grids;
  if (grid.rows === board.rows && grid.cols === board.cols) return grid;
  const placed: { grid: Grid; at: string; spread: number }[] = [];
  for (const g of grids.filter((g) => g.rows >= board.rows && g.cols >= board.cols)) {
    const patches = Array.from({ length: g.rows * g.cols }, (_, i) =>
      cellPatch(image, g, Math.floor(i / g.cols), i % g.cols, DEFAULT_THRESHOLDS.inset, 8),
    );
    for (let top = 0; top + board.rows <= g.rows; top++) {
      for (let left = 0; left + board.cols <= g.cols; left++) {
        const at = (r: number, c: number) => patches[(top + r) * g.cols + left + c];
        placed.push({
          grid: cropGrid(g, top, left, board.rows, board.cols),
          at: `${top},${left}`,
          spread: labelSpread(board, at),
        });
      }
    }
  }
  placed.sort((a, b) => a.spread - b.spread);
  const [best] = placed;
  const next = placed.find((p) => p.at !== best?.at);
  if (!best)
    throw new LearnError(
      `the board text is ${board.rows}×${board.cols} but the image shows ${grid.rows}×${grid.cols} cells`,
    );
  if (best.spread > MAX_PLACED_SPREAD || (next && next.spread < 2 * best.spread + MIN_PLACED_GAP)) {
    throw new LearnError(
      `the board text is ${board.rows}×${board.cols} but the image shows ${grid.rows}×${grid.cols} cells, ` +
        `and no ${board.rows}×${board.cols} part of them clearly matches it`,
    );
  }
  return best.grid;
}

/** Cells of one label in a placed board text this close (mean RMS to their label's mean) look alike… */
const MAX_PLACED_SPREAD = 12;
/**
 * ...and any other place must be at least twice as far, and this much farther (a text of hidden cells fits
 * anywhere).
 */
const MIN_PLACED_GAP = 3;

/** How unlike each other the cells of each label are: the mean RMS distance of a cell to its label's mean. */
function labelSpread(board: Board, at: (row: number, col: number) => Patch): number {
  const sums = new Map<Cell, { sum: Float32Array; n: number }>();
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      const { rgb } = at(r, c);
      const s = sums.get(board.cells[r][c]) ?? { sum: new Float32Array(rgb.length), n: 0 };
      for (let i = 0; i < rgb.length; i++) s.sum[i] += rgb[i];
      s.n++;
      sums.set(board.cells[r][c], s);
    }
  }
  let total = 0;
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      const p = at(r, c);
      const { sum, n } = sums.get(board.cells[r][c]) as { sum: Float32Array; n: number };
      total += rmsDistance(p, { size: p.size, rgb: sum.map((v) => v / n) });
    }
  }
  return total / (board.rows * board.cols);
}

/** The cell's pixels from the whole pixel nearest its fitted corner: a crisp copy, not a resampled blur. */
function cutCell(image: RgbaImage, grid: Grid, row: number, col: number, size: number): RgbaImage {
  const corner = {
    rows: 1,
    cols: 1,
    left: Math.round(cellLeft(grid, col)),
    top: Math.round(cellTop(grid, row)),
    pitchX: size,
    pitchY: size,
  };
  return toImage(cellPatch(image, corner, 0, 0, 0, size));
}

function toImage(patch: Patch): RgbaImage {
  const data = new Uint8Array(patch.size * patch.size * 4);
  for (let i = 0; i < patch.size * patch.size; i++) {
    for (let ch = 0; ch < 3; ch++) data[i * 4 + ch] = Math.round(patch.rgb[i * 3 + ch]);
    data[i * 4 + 3] = 255;
  }
  return { width: patch.size, height: patch.size, data };
}

/**
 * Farthest-point sampling: start from the most typical sample, then add the one least like those kept.
 * `farthest` is how far the least-covered sample stays from every kept one.
 */
function spreadSamples(images: RgbaImage[], inset: number): { kept: RgbaImage[]; farthest: number } {
  const size = Math.max(3, Math.round(images[0].width * (1 - 2 * inset)));
  const patches = images.map((im) =>
    cellPatch(im, { rows: 1, cols: 1, left: 0, top: 0, pitchX: im.width, pitchY: im.height }, 0, 0, inset, size),
  );
  const pool = patches.length > 200 ? patches.filter((_, i) => i % Math.ceil(patches.length / 200) === 0) : patches;
  const first = typical(pool);
  const kept = [first];
  const gap = pool.map((p) => rmsDistance(p, first));
  while (kept.length < MAX_SAMPLES) {
    const far = gap.indexOf(Math.max(...gap));
    if (gap[far] < MIN_SPREAD) break;
    kept.push(pool[far]);
    pool.forEach((p, i) => (gap[i] = Math.min(gap[i], rmsDistance(p, pool[far]))));
  }
  return { kept: kept.map((p) => images[patches.indexOf(p)]), farthest: Math.max(...gap) };
}

function typical(pool: Patch[]): Patch {
  let best = pool[0];
  let bestSum = Infinity;
  for (const a of pool.slice(0, 50)) {
    const sum = pool.reduce((s, b) => s + rmsDistance(a, b), 0);
    if (sum < bestSum) [best, bestSum] = [a, sum];
  }
  return best;
}
