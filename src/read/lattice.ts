// A board found in part, grown along its lattice: rows and columns beyond the grid whose cells look like the
// board's own are taken in (Google's flat hidden cells have no outline of their own, so a column of them is often
// left out by the outline finders, and no count or flag beyond shows it is board).
import type { Coord, Reading, RgbaImage, Side } from '../common/types';
import { grownGrid, shiftGrid } from '../image/pixels';
import { mean } from '../common/stats';
import { classify } from './classify';
import { beyondSides, type Beyond, looksLikeBoard } from './open';
import { cropGrid } from '../locate/grid';
import { distances, distrustLoneZeros, skinFit, type SkinReading } from './read';
import { debuglog } from 'node:util';

const trace = debuglog('mine-assist');

/**
 * The reading grown by a row or column at a time, on a side where the lattice goes on (read/open.ts) and the strip's
 * cells sit where the grid puts them (`placed`), up to MAX_GROWTH times. A side still in doubt after that is left to
 * analyze/analyze.ts, which sets its counts aside, as it does for a board read without a skin (not grown: no
 * template tells where a strip's cells sit).
 */
export function growAlongLattice(image: RgbaImage, read: SkinReading): SkinReading {
  if (!read.skin.templates.length) return read;
  let current = trimUnlike(read);
  for (let round = 0; round < MAX_GROWTH; round++) {
    const beyond = beyondSides(image, current.grid, current.skin, current.readings).find(
      (b) => b.lattice && placed(image, current, b),
    );
    if (!beyond) break;
    trace('grown along the lattice: a strip on the %s side', beyond.side);
    current = grownBy(image, current, beyond.side);
  }
  return current;
}

/** Rows or columns taken in at most: a board found in part still has most of its lattice in the grid. */
const MAX_GROWTH = 16;

/**
 * Whether the strip's cells are cells where the grid puts them: read half a cell along the strip, they fit the skin
 * clearly worse (PHASE_MARGIN times, and PHASE_FLOOR of its limit). A plain backdrop the colour of a flat cell fits
 * as well anywhere; a row of cells shows their borders, or their alternating shades, at the grid's pitch.
 */
function placed(image: RgbaImage, read: SkinReading, beyond: Beyond): boolean {
  const { strip, seen, side } = beyond;
  const vertical = side === 'left' || side === 'right';
  const moved = vertical ? shiftGrid(strip, 0, strip.pitchY / 2) : shiftGrid(strip, strip.pitchX / 2, 0);
  const cells = seen.slice(0, -1).map((r): Coord => [r.row, r.col]);
  const off = classify(image, moved, read.skin, { cells, search: false });
  const at = mean(seen.slice(0, -1).map((r) => r.distance));
  const away = mean(off.map((r) => r.distance));
  trace('the %s strip: fit %s, half a cell along %s', side, at.toFixed(2), away.toFixed(2));
  return away >= PHASE_MARGIN * at + PHASE_FLOOR * read.skin.maxDistance;
}

const PHASE_MARGIN = 1.5;
const PHASE_FLOOR = 0.05;

/**
 * The reading without outer rows and columns whose readable cells mostly (over UNLIKE_SHARE) are clearly unlike the
 * board's other cells of their label (read/open.ts `looksLikeBoard`, loosely): a counter strip or a window's title
 * bar that the skin's loosest templates match about as far as its limit allows is not board.
 */
function trimUnlike(read: SkinReading): SkinReading {
  let current = read;
  for (let changed = true; changed;) {
    changed = false;
    for (const side of SIDES) {
      const { grid } = current;
      if ((side === 'left' || side === 'right' ? grid.cols : grid.rows) <= MIN_KEPT) continue;
      const onSide = (r: Reading) =>
        side === 'left'
          ? r.col === 0
          : side === 'right'
            ? r.col === grid.cols - 1
            : side === 'top'
              ? r.row === 0
              : r.row === grid.rows - 1;
      const strip = current.readings.filter((r) => onSide(r) && !r.unreadable);
      const rest = current.readings.filter((r) => !onSide(r));
      const like = looksLikeBoard(rest, current.skin, true);
      if (!strip.length || strip.filter(like).length >= (1 - UNLIKE_SHARE) * strip.length) continue;
      trace('not board: the %s strip does not look like the board', side);
      current = trimmed(current, side);
      changed = true;
    }
  }
  return current;
}

const UNLIKE_SHARE = 0.5;
/** Rows or columns kept at least: fewer is no board (read/read.ts), and says nothing of what is like it. */
const MIN_KEPT = 4;

/** The reading without its outer row or column on `side`. */
function trimmed(read: SkinReading, side: Side): SkinReading {
  const g = read.grid;
  const [top, left] = [side === 'top' ? 1 : 0, side === 'left' ? 1 : 0];
  const [rows, cols] = [
    g.rows - (side === 'top' || side === 'bottom' ? 1 : 0),
    g.cols - (side === 'left' || side === 'right' ? 1 : 0),
  ];
  const grid = cropGrid(g, top, left, rows, cols);
  const readings = read.readings
    .filter((r) => r.row >= top && r.row < top + rows && r.col >= left && r.col < left + cols)
    .map((r): Reading => (top || left ? { ...r, row: r.row - top, col: r.col - left } : r));
  return { ...read, grid, readings, fit: skinFit(mean(distances(readings)), read.skin) };
}

const SIDES: Side[] = ['left', 'right', 'top', 'bottom'];

/** The reading with the strip beyond `side` taken in: its cells read (searched, as the board's were), 0s checked. */
function grownBy(image: RgbaImage, read: SkinReading, side: Side): SkinReading {
  const grid = grownGrid(read.grid, side);
  const [dr, dc] = [side === 'top' ? 1 : 0, side === 'left' ? 1 : 0];
  const vertical = side === 'left' || side === 'right';
  const [row, col] = [side === 'bottom' ? grid.rows - 1 : 0, side === 'right' ? grid.cols - 1 : 0];
  const cells = Array.from({ length: vertical ? grid.rows : grid.cols }, (_, k): Coord =>
    vertical ? [k, col] : [row, k],
  );
  const fresh = classify(image, grid, read.skin, { cells });
  const moved =
    dr || dc ? read.readings.map((r): Reading => ({ ...r, row: r.row + dr, col: r.col + dc })) : read.readings;
  const all = [...moved, ...fresh].sort((a, b) => a.row - b.row || a.col - b.col);
  const readings = distrustLoneZeros(grid, all);
  return { ...read, grid, readings, fit: skinFit(mean(distances(readings)), read.skin) };
}
