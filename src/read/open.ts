// Sides of the grid past which the board goes on: the cells one pitch beyond read as counts or flags, or as the
// board's own cells of any kind. The grid then holds part of the board, and the counts along that side see cells
// not read.
import type { Coord, Grid, Reading, RgbaImage, Side, Skin } from '../common/types';
import { gridEdges, sameGrid } from '../image/pixels';
import { classify } from './classify';
import { seenByLooks } from './looks';
import { clusterCells, shareAlike } from './clusters';
import { median } from '../common/stats';
import { debuglog } from 'node:util';

const trace = debuglog('mine-assist');

const SIDES: Side[] = ['left', 'right', 'top', 'bottom'];

/** What the cells just beyond one side of the grid show. */
export interface Beyond {
  side: Side;
  /** The strip of cells beyond, as a grid of its own, and its cells read (numbered within the strip). */
  strip: Grid;
  seen: Reading[];
  /** Some of its cells read clearly as counts or flags: board, whatever the rest shows. */
  counts: boolean;
  /** Nearly all of its cells look like the board's own, breaking none of the game's rules (`latticeGoesOn`). */
  lattice: boolean;
}

/**
 * The sides on which the board goes on, or may: the cells just beyond the grid read clearly as counts or flags
 * (a grid trimmed short of them, as on a crop where the cut column fits the skin better than the board's first
 * columns), or they read as the board's own cells of any kind (a column of hidden cells the grid stopped short
 * of, where no count or flag shows that it is board). Either way the side is not an edge the reading can vouch
 * for: its counts see cells not read. `readings` are the grid's cells, what the strips are compared with.
 */
export function openSides(image: RgbaImage, grid: Grid, skin: Skin, readings: Reading[] = []): Side[] {
  const open = beyondSides(image, grid, skin, readings)
    .filter((b) => b.counts || b.lattice)
    .map((b) => b.side);
  const more = skin.templates.length ? [] : lookAlikeSides(image, grid).filter((side) => !open.includes(side));
  return [...open, ...more];
}

/**
 * With no skin, also the sides beyond which a good share of the cells (GOES_ON) have the look of a cluster of the
 * board's cells (border strips and background, whatever they show): the generic reader's own extent is the least
 * sure, and a grid it reads in part must not use the counts along the cut.
 */
function lookAlikeSides(image: RgbaImage, grid: Grid): Side[] {
  const clustered = clusterCells(image, grid);
  if (!clustered) return [];
  return SIDES.filter((side) => {
    const strip = stripBeyond(grid, side);
    const e = gridEdges(strip);
    if (e.left < 0 || e.top < 0 || e.right > image.width || e.bottom > image.height) return false;
    return shareAlike(image, strip, clustered.clusters) >= GOES_ON;
  });
}

/** This share of a strip's cells with the board's looks is more board, to a board read with no skin. */
const GOES_ON = 0.3;

/**
 * What lies just beyond each side of the grid that has a whole strip of cells inside the image. Kept with the
 * readings: a reading's sides are looked at when it is grown (read/lattice.ts) and again when it is analysed.
 */
export function beyondSides(image: RgbaImage, grid: Grid, skin: Skin, readings: Reading[]): Beyond[] {
  const kept = seenBeyond.get(readings);
  if (kept && kept.image === image && kept.skin === skin && sameGrid(kept.grid, grid)) return kept.beyond;
  const beyond = lookBeyond(image, grid, skin, readings);
  seenBeyond.set(readings, { image, grid, skin, beyond });
  return beyond;
}

const seenBeyond = new WeakMap<Reading[], { image: RgbaImage; grid: Grid; skin: Skin; beyond: Beyond[] }>();

/**
 * With a skin, the cells beyond are read by its templates; a board read without one (the generic reader) has them
 * read by the looks they share with its cells (read/looks.ts).
 */
function lookBeyond(image: RgbaImage, grid: Grid, skin: Skin, readings: Reading[]): Beyond[] {
  const like = skin.templates.length ? looksLikeBoard(readings, skin) : null;
  return SIDES.flatMap((side): Beyond[] => {
    const strip = stripBeyond(grid, side);
    const e = gridEdges(strip);
    if (e.left < 0 || e.top < 0 || e.right > image.width || e.bottom > image.height) return [];
    const vertical = side === 'left' || side === 'right';
    const cells = Array.from({ length: vertical ? grid.rows : grid.cols }, (_, k): Coord =>
      vertical ? [k, 0] : [0, k],
    );
    const seen = like
      ? classify(image, strip, skin, { cells, search: false })
      : seenByLooks(image, grid, side, readings);
    if (!seen) return [];
    const clear = seen.filter((r) => !r.unreadable && (!like || r.distance <= CLEAR * skin.maxDistance));
    const alike = like ? clear.filter(like) : clear;
    trace('beyond the %s side: %d of %d cells read like the board', side, alike.length, seen.length);
    const counts = clear.some((r) => /^[1-8F]$/.test(r.cell));
    return [{ side, strip, seen, counts, lattice: latticeGoesOn(side, seen, alike, grid, readings) }];
  });
}

/** A count or flag read this close (a share of the skin's limit) beyond the grid is board. */
const CLEAR = 0.5;

/**
 * A cell beyond the grid looks like the board's own cells of its label when it sits no farther from its template
 * than LIKE times their median distance, plus SLACK of the skin's limit: a frame or backdrop that a template
 * matches loosely sits well beyond the board's own cells, which match theirs closely.
 */
const LIKE = 1.5;
const SLACK = 0.05;

/**
 * Cells already in the grid are taken to be board unless they sit clearly farther: UNLIKE times the board's median
 * distance for their label, plus UNLIKE_SLACK of the skin's limit (a cell at the image's edge, or one of GNOME's
 * columns a pixel narrower, fits a little less closely than the rest).
 */
const UNLIKE = 4;
const UNLIKE_SLACK = 0.25;

/**
 * Whether a cell read looks like the board's cells (`readings`) of its label: readable, and no farther from its
 * template than they typically are (LIKE, SLACK). A label the board does not show is like none of its cells.
 * `loosely` (UNLIKE, UNLIKE_SLACK), such a label is judged by how close all the board's cells are: a column of
 * counts and flags beside a field of hidden cells is board.
 */
export function looksLikeBoard(readings: Reading[], skin: Skin, loosely = false): (r: Reading) => boolean {
  const typical = typicalDistances(readings);
  const [times, slack] = loosely ? [UNLIKE, UNLIKE_SLACK] : [LIKE, SLACK];
  const any = loosely ? median(readings.filter((r) => !r.unreadable).map((r) => r.distance)) : -Infinity;
  return (r) => !r.unreadable && r.distance <= times * (typical.get(r.cell) ?? any) + slack * skin.maxDistance;
}

/** The median distance of the board's readable cells to their templates, by label. */
function typicalDistances(readings: Reading[]): Map<string, number> {
  const byLabel = new Map<string, number[]>();
  for (const r of readings) {
    if (r.unreadable) continue;
    const list = byLabel.get(r.cell);
    if (list) list.push(r.distance);
    else byLabel.set(r.cell, [r.distance]);
  }
  return new Map([...byLabel].map(([label, d]) => [label, median(d)]));
}

/**
 * Whether a strip beyond the grid is more of the board: nearly all of its cells (LATTICE_SHARE) look like the
 * board's own, and as cells of the board they break none of the game's rules: no 0 among them touches a hidden
 * cell or flag, of the strip or of the grid's edge (a backdrop drawn like the open cells, as ace draws both, reads
 * as 0s all along the board).
 */
function latticeGoesOn(side: Side, seen: Reading[], like: Reading[], grid: Grid, readings: Reading[]): boolean {
  if (seen.length < MIN_CELLS || like.length < LATTICE_SHARE * seen.length) return false;
  const vertical = side === 'left' || side === 'right';
  const [row, col] = [side === 'bottom' ? grid.rows - 1 : 0, side === 'right' ? grid.cols - 1 : 0];
  const edge = new Map<number, string>();
  for (const r of readings) {
    const onEdge = vertical ? r.col === col : r.row === row;
    if (onEdge && !r.unreadable) edge.set(vertical ? r.row : r.col, r.cell);
  }
  const along = (r: Reading) => (vertical ? r.row : r.col);
  const strip = new Map(seen.map((r) => [along(r), r.unreadable ? undefined : r.cell]));
  const covered = (cell: string | undefined) => cell === '.' || cell === 'F';
  return !like.some(
    (r) =>
      r.cell === '0' &&
      [-1, 0, 1].some((k) => covered(edge.get(along(r) + k)) || (k !== 0 && covered(strip.get(along(r) + k)))),
  );
}

/** The share of a strip's cells that must look like the board's for the lattice to go on there. */
const LATTICE_SHARE = 0.8;
/** A strip of fewer cells says little. */
const MIN_CELLS = 4;

/** The row or column of cells just beyond a side of the grid, as a grid of its own. */
function stripBeyond(grid: Grid, side: Side): Grid {
  const { left, top, right, bottom } = gridEdges(grid);
  const { lefts: _lefts, ...column } = grid;
  const { tops: _tops, ...row } = grid;
  if (side === 'left') return { ...column, cols: 1, left: left - grid.pitchX };
  if (side === 'right') return { ...column, cols: 1, left: right };
  if (side === 'top') return { ...row, rows: 1, top: top - grid.pitchY };
  return { ...row, rows: 1, top: bottom };
}
