import type { Cell, Grid, Reading, RgbaImage, Skin } from './types';
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
export function classify(image: RgbaImage, grid: Grid, skin: Skin): Reading[] {
  const size = patchSize(grid, skin);
  const templates = prepareTemplates(skin, size);
  const readings: Reading[] = [];
  for (let row = 0; row < grid.rows; row++) {
    for (let col = 0; col < grid.cols; col++) {
      readings.push(readCell(cellPatch(image, grid, row, col, skin.inset, size), templates, skin, row, col));
    }
  }
  return readings;
}

export function patchSize(grid: Grid, skin: Skin): number {
  const observed = Math.min(grid.pitchX, grid.pitchY) * (1 - 2 * skin.inset);
  const nominal = skin.cellSize * (1 - 2 * skin.inset);
  return Math.max(3, Math.round(Math.min(observed, nominal)));
}

function prepareTemplates(skin: Skin, size: number): Prepared[] {
  return skin.templates.map((t) => ({ label: t.label, patch: cellPatch(t.image, wholeGrid(t.image), 0, 0, skin.inset, size) }));
}

function readCell(patch: Patch, templates: Prepared[], skin: Skin, row: number, col: number): Reading {
  const nearest = new Map<Cell, number>();
  for (const t of templates) {
    const d = rmsDistance(patch, t.patch);
    if (d < (nearest.get(t.label) ?? Infinity)) nearest.set(t.label, d);
  }
  const [[best, distance], [runnerUp, runnerUpDistance] = ['.', Infinity]] = [...nearest].sort((a, b) => a[1] - b[1]);
  const unreadable = distance > skin.maxDistance || distance > skin.maxRatio * runnerUpDistance;
  return { row, col, cell: unreadable ? '.' : best, best, distance, runnerUp, runnerUpDistance, unreadable };
}
