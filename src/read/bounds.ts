// The board's grid chosen and bounded without a skin: each candidate grid as the locator found it is cut to the
// cells that look like the board's cells (not a counter strip, a face, a menu, a side panel or window chrome), read
// skin-free, and the candidate read best stands in for a skin's reading.
import type { Grid, Reading, Rect, RgbaImage } from '../common/types';
import { trimGrid } from '../locate/grid';
import { gridEdges } from '../image/pixels';
import { type Cluster, clusterCells, lookDistance } from './clusters';
import { readWithoutSkin } from './skinless';

/** A candidate board: its grid as fitted to the outlines (made on demand), and the outlines of its lattice. */
export interface Candidate {
  grid: () => Grid;
  boxes: () => Rect[];
  /** Read only if every row and column of it has the board's looks (a grid placed by a skin that did not fit). */
  whole?: boolean;
}

/**
 * The candidate read best without a skin, its grid bounded by looks: of the candidates whose lattice has at least
 * half the outlines of the largest (a few outlines that happen to line up, grown across a page, are no board),
 * the one with the most cells known among those whose reading is `enough`; the larger lattice on a tie. With
 * `fallback`, the first candidate's reading stands when none is enough; otherwise null. The shapes of the skins in
 * `except` are not used (read/skinless.ts).
 */
export function readBoundedWithoutSkin(
  image: RgbaImage,
  candidates: Candidate[],
  enough: (readings: Reading[]) => boolean,
  atLeast: number,
  fallback = false,
  except: readonly string[] = [],
): { grid: Grid; readings: Reading[] } | null {
  let best: { grid: Grid; readings: Reading[]; known: number } | null = null;
  let first: { grid: Grid; readings: Reading[] } | null = null;
  const largest = Math.max(0, ...candidates.map((c) => c.boxes().length));
  for (const candidate of candidates) {
    const boxes = candidate.boxes();
    if (boxes.length < LATTICE_SHARE * largest) continue;
    const found = candidate.grid();
    if (Math.min(found.pitchX, found.pitchY) < MIN_PITCH || boxes.length < MIN_OUTLINED * found.rows * found.cols)
      continue;
    const grid = boundByLooks(image, found, boxes);
    if (!grid || Math.min(grid.rows, grid.cols) < MIN_SIDE) continue;
    if (candidate.whole && (grid.rows !== found.rows || grid.cols !== found.cols)) continue;
    const readings = readWithoutSkin(image, grid, atLeast, except);
    first ??= { grid, readings };
    const known = readings.filter((r) => !r.unreadable).length;
    if (enough(readings) && (!best || known > best.known)) best = { grid, readings, known };
  }
  return best ?? (fallback ? first : null);
}

/** Candidates whose lattice has fewer outlines than this share of the largest lattice's are not read. */
const LATTICE_SHARE = 0.5;
/** Nor grids with outlines on fewer than this share of their cells: grown far past the few outlines they came from. */
const MIN_OUTLINED = 0.02;
/** Cells smaller than this (pixels) are not read: a fine texture clusters like a board. */
const MIN_PITCH = 5;
/** A bounded grid with fewer rows or columns than this is a strip of cell-like tiles, not a board read skin-free. */
const MIN_SIDE = 5;

/**
 * The grid cut to the board's own cells. Cells are clustered by appearance, and clusters of one look (border strips
 * and background) grouped: a look is the board's when the lattice of outlines shows it (it holds cells with an
 * outline of the lattice) or when it spreads over at least half the rows and half the columns (hidden cells often
 * have no outline of their own). Outer rows and columns where under half the cells have one of the board's looks
 * are dropped. Null when the cells show more looks than a board has (a texture).
 */
export function boundByLooks(image: RgbaImage, grid: Grid, boxes: Rect[]): Grid | null {
  const clustered = clusterCells(image, grid);
  if (!clustered) return null;
  const outlined = outlinedCells(grid, boxes);
  let onLattice = 0;
  for (const o of outlined) if (o) onLattice++;
  const board = new Array<boolean>(grid.rows * grid.cols).fill(false);
  for (const group of lookGroups(clustered.clusters)) {
    const members = group.flatMap((c) => c.members);
    const shown = members.filter((i) => outlined[i]).length;
    if (shown >= Math.max(2, SHOWN * onLattice) || spreads(grid, members)) for (const i of members) board[i] = true;
  }
  return trimGrid(grid, board).grid;
}

/** A look is the lattice's when at least this share of the outlined cells (and two) have it. */
const SHOWN = 0.02;

/** Looks closer than this (RMS over border strips and background, 0-255) are one look: counts share the open look. */
const SAME_LOOK = 12;

/** Clusters grouped by look, the largest clusters first. */
function lookGroups(clusters: Cluster[]): Cluster[][] {
  const groups: Cluster[][] = [];
  for (const c of [...clusters].sort((a, b) => b.members.length - a.members.length)) {
    const group = groups.find((g) => lookDistance(g[0], c) <= SAME_LOOK);
    if (group) group.push(c);
    else groups.push([c]);
  }
  return groups;
}

/** Per cell, whether an outline of the lattice is centred in it. */
function outlinedCells(grid: Grid, boxes: Rect[]): boolean[] {
  const outlined = new Array<boolean>(grid.rows * grid.cols).fill(false);
  for (const b of boxes) {
    const col = Math.floor((b.left + b.width / 2 - grid.left) / grid.pitchX);
    const row = Math.floor((b.top + b.height / 2 - grid.top) / grid.pitchY);
    if (row >= 0 && row < grid.rows && col >= 0 && col < grid.cols) outlined[row * grid.cols + col] = true;
  }
  return outlined;
}

/** Whether the cells lie in at least half the grid's rows and half its columns. */
function spreads(grid: Grid, cells: number[]): boolean {
  const rows = new Set<number>();
  const cols = new Set<number>();
  for (const i of cells) {
    rows.add(Math.floor(i / grid.cols));
    cols.add(i % grid.cols);
  }
  return rows.size >= grid.rows / 2 && cols.size >= grid.cols / 2;
}

/**
 * The share of the lattice's outlines centred over half a cell outside the grid: where a skin reads only part of
 * the lattice (a wrong skin that matches the hidden cells, say), the board goes on past what it reads.
 */
export function latticeBeyond(grid: Grid, boxes: Rect[]): number {
  const { left, top, right, bottom } = gridEdges(grid);
  const [mx, my] = [grid.pitchX / 2, grid.pitchY / 2];
  let beyond = 0;
  for (const b of boxes) {
    const [x, y] = [b.left + b.width / 2, b.top + b.height / 2];
    if (x < left - mx || x > right + mx || y < top - my || y > bottom + my) beyond++;
  }
  return beyond / Math.max(1, boxes.length);
}
