import type { Cell, Coord, Grid, Reading, RgbaImage, Skin } from './types';
import { cellPatch, Patch, rmsDistance, wholeGrid } from './pixels';

interface Prepared {
  label: Cell;
  patch: Patch;
}

/**
 * Reads every cell by nearest-template distance. Cell and templates are compared at the smaller of the
 * two sizes (both only ever shrink). A best match that is too far, or too close to the best match of
 * another label, makes the cell unreadable: read as hidden, and reported.
 */
export function classify(image: RgbaImage, grid: Grid, skin: Skin, options: ClassifyOptions = {}): Reading[] {
  const size = patchSize(grid, skin);
  const templates = prepareTemplates(skin, size);
  const cells = options.cells ?? allCells(grid);
  const search = options.search ?? true;
  return cells.map(([row, col]) => readCell(image, grid, templates, skin, { size, search, row, col }));
}

export interface ClassifyOptions {
  /** Only these cells (default: all). */
  cells?: Coord[];
  /** Look one pixel around a cell whose match is not clear-cut (default: true). */
  search?: boolean;
}

/** A match this close, and this far ahead of the runner-up, needs no search for a better-placed patch. */
const SURE_DISTANCE = 0.25;
const SURE_RATIO = 0.5;

function allCells(grid: Grid): Coord[] {
  return Array.from({ length: grid.rows * grid.cols }, (_, i): Coord => [Math.floor(i / grid.cols), i % grid.cols]);
}

export function patchSize(grid: Grid, skin: Skin): number {
  const observed = Math.min(grid.pitchX, grid.pitchY) * (1 - 2 * skin.inset);
  const largest = Math.max(...skin.templates.map((t) => Math.min(t.image.width, t.image.height))) * (1 - 2 * skin.inset);
  return Math.max(3, Math.round(Math.min(observed, largest)));
}

/** Every template resampled to the patch size: the nearest wins, whichever size the game drew it at. */
function prepareTemplates(skin: Skin, size: number): Prepared[] {
  return skin.templates.map((t) => ({ label: t.label, patch: cellPatch(t.image, wholeGrid(t.image), 0, 0, skin.inset, size) }));
}

/**
 * Each label's nearest template; when the match is not clear-cut, the patch is also taken one pixel off in
 * each direction (a fitted grid drifts by a pixel across a board) and each label keeps its closest.
 */
function readCell(image: RgbaImage, grid: Grid, templates: Prepared[], skin: Skin, at: { size: number; search: boolean; row: number; col: number }): Reading {
  const { size, row, col } = at;
  const nearest = new Map<Cell, number>();
  const measure = (dx: number, dy: number) => {
    const patch = cellPatch(image, { ...grid, left: grid.left + dx, top: grid.top + dy }, row, col, skin.inset, size);
    for (const t of templates) {
      const d = rmsDistance(patch, t.patch);
      if (d < (nearest.get(t.label) ?? Infinity)) nearest.set(t.label, d);
    }
  };
  measure(0, 0);
  if (at.search && !clearCut(ranked(nearest), skin)) {
    for (const [dx, dy] of [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, 1], [-1, 1], [1, -1]]) measure(dx, dy);
  }
  const [[best, distance], [runnerUp, runnerUpDistance] = ['.', Infinity]] = ranked(nearest);
  const unreadable = distance > skin.maxDistance || distance > skin.maxRatio * runnerUpDistance;
  return { row, col, cell: unreadable ? '.' : best, best, distance, runnerUp, runnerUpDistance, unreadable };
}

const ranked = (nearest: Map<Cell, number>): [Cell, number][] => [...nearest].sort((a, b) => a[1] - b[1]);

function clearCut([[, distance], [, runnerUp] = ['.', Infinity]]: [Cell, number][], skin: Skin): boolean {
  return distance <= SURE_DISTANCE * skin.maxDistance && distance <= SURE_RATIO * runnerUp;
}
