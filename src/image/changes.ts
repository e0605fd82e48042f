// Where two frames of the same screen differ, cell by cell: what a watch (analyze/watch.ts) reads again. Cheap on
// purpose: a plain walk over the bytes of the cells, stopping at a cell's first pixel that differs.
import type { Coord, Grid, RgbaImage } from '../common/types';
import { cellLeft, cellTop, gridEdges } from './pixels';

/**
 * A pixel differs when one of its channels moved by more than this (0-255): less is a capture's noise, while a
 * cell that changes (opened, flagged) moves many pixels by far more.
 */
const TOLERANCE = 24;

/** The cells of `grid` with at least one pixel that differs between the frames (of the same size). */
export function changedCells(before: RgbaImage, after: RgbaImage, grid: Grid): Coord[] {
  const changed: Coord[] = [];
  for (let row = 0; row < grid.rows; row++) {
    const top = Math.round(cellTop(grid, row));
    const bottom = Math.round(cellTop(grid, row) + grid.pitchY);
    for (let col = 0; col < grid.cols; col++) {
      const left = Math.round(cellLeft(grid, col));
      const right = Math.round(cellLeft(grid, col) + grid.pitchX);
      if (differs(before, after, left, top, right, bottom)) changed.push([row, col]);
    }
  }
  return changed;
}

/**
 * Whether the band around the grid (its frame, `width` pixels wide, clipped to the image) changed: the board was
 * moved, resized or covered at a side — then the grid no longer holds, whatever the cells say.
 */
export function frameChanged(before: RgbaImage, after: RgbaImage, grid: Grid, width: number): boolean {
  const edges = gridEdges(grid);
  const left = Math.round(edges.left);
  const top = Math.round(edges.top);
  const right = Math.round(edges.right);
  const bottom = Math.round(edges.bottom);
  const w = Math.round(width);
  return (
    differs(before, after, left - w, top - w, right + w, top) ||
    differs(before, after, left - w, bottom, right + w, bottom + w) ||
    differs(before, after, left - w, top, left, bottom) ||
    differs(before, after, right, top, right + w, bottom)
  );
}

/** Whether any pixel of the rectangle [left, right) × [top, bottom), clipped to the frames, differs. */
function differs(a: RgbaImage, b: RgbaImage, left: number, top: number, right: number, bottom: number): boolean {
  const x0 = Math.max(0, left);
  const x1 = Math.min(a.width, right);
  const y0 = Math.max(0, top);
  const y1 = Math.min(a.height, bottom);
  const pa = a.data;
  const pb = b.data;
  for (let y = y0; y < y1; y++) {
    const end = (y * a.width + x1) * 4;
    for (let i = (y * a.width + x0) * 4; i < end; i += 4) {
      if (
        Math.abs(pa[i] - pb[i]) > TOLERANCE ||
        Math.abs(pa[i + 1] - pb[i + 1]) > TOLERANCE ||
        Math.abs(pa[i + 2] - pb[i + 2]) > TOLERANCE
      )
        return true;
    }
  }
  return false;
}
