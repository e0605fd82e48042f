// Fine placement of a fitted grid on a skin: the origin and pitch where a sample of cells sits closest to
// the skin's templates. The outline fit is good to a pixel or so; small cells need better.
import { debuglog } from 'node:util';
import type { Coord, Grid, RgbaImage, Skin } from '../common/types';
import { classify } from './classify';
import { BEYOND_ROUNDING, meanNearest, medianNearest, nearestDistances, worstFirst } from './nearest';
import { shiftGrid } from '../image/pixels';
import { edgeSums, lineShiftsOn } from '../image/patch';
import { mean, median } from '../common/stats';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { abs, ceil, floor, max, min, round } = Math;

const trace = debuglog('mine-assist');

/**
 * Shifts the grid by up to two steps each way, then tries pitches a little off on each axis (scaled about
 * the board's centre, with the shift re-checked a step each way). A step is a pixel of the templates, not
 * of the screenshot: 2.5 px on a board scaled 250 %, half a pixel at 50 %. Both searches climb: the shift
 * moves to its best neighbour while that fits better, a pitch goes further off only while that helps.
 * Last, on a board drawn at twice the templates' size or more, the shift is tried half a step each way (a whole
 * pixel of the screenshot or more, where a large cell read with small templates fits sharply), and on cells of
 * 80 px or more a quarter step after. On a board at the skin's own cell size, the grid is then also tried at that
 * pitch on whole pixels (`sizeDrawn`), even when the sample fitted at once: the sample is mostly plain cells, which
 * fit about as well a little off while the counts sit off their templates. Where the climb's steps are under a
 * pixel, the whole pixels are tried first (then on from the best a pixel at a time), and the climbs only when those
 * fit no better than the grid as found: a game draws its cells on whole pixels, and steps under a pixel only lead
 * there.
 */
export function alignToSkin(image: RgbaImage, grid: Grid, skin: Skin): Grid {
  const sample = sampleCells(grid, 64);
  const size = sizeDrawn(grid, skin);
  const found = { grid, fit: meanNearest(image, grid, skin, sample) };
  if (size && climbStep(grid) < 1 && found.fit > 0) {
    const whole = onWholePixels(image, [grid], found, skin, sample, size);
    if (whole !== found) return climbWholePixels(image, whole, skin, sample).grid;
  }
  const climbed = climbToSkin(image, found, skin, sample);
  const sized = size ?? sizeDrawn(climbed.grid, skin);
  return sized && climbed.fit > 0
    ? onWholePixels(image, [grid, climbed.grid], climbed, skin, sample, sized).grid
    : climbed.grid;
}

/** The climb's step: a twentieth of a cell. */
const climbStep = (grid: Grid): number => min(grid.pitchX, grid.pitchY) / 20;

function climbToSkin(
  image: RgbaImage,
  found: { grid: Grid; fit: number },
  skin: Skin,
  sample: Coord[],
): { grid: Grid; fit: number } {
  const step = climbStep(found.grid);
  let best = found;
  if (best.fit <= ALIGNED * skin.maxDistance) return best;
  let order = worstFirst(image, best.grid, skin, sample);
  const consider = (candidate: Grid): boolean => {
    const fit = meanNearest(image, candidate, skin, sample, best.fit - 1e-9, order);
    if (fit >= best.fit - 1e-9) return false;
    best = { grid: candidate, fit };
    order = worstFirst(image, candidate, skin, sample);
    return true;
  };
  const climb = (unit: number, reach: number) => {
    const base = best.grid;
    const tried = new Set(['0,0']);
    for (let [x, y, moved] = [0, 0, true]; moved;) {
      moved = false;
      const [fromX, fromY] = [x, y];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [fromX + dx, fromY + dy];
          if (abs(nx) > reach || abs(ny) > reach || tried.has(`${nx},${ny}`)) continue;
          tried.add(`${nx},${ny}`);
          if (consider(shiftGrid(base, nx * unit, ny * unit))) [x, y, moved] = [nx, ny, true];
        }
      }
    }
  };
  climb(step, 2);
  if (step >= 2) consider(searchMisfits(image, best.grid, skin, sample, step));
  for (const axis of ['x', 'y'] as const) {
    const base = best.grid;
    for (const direction of [-1, 1]) {
      for (const k of PITCH_STEPS) {
        let better = false;
        for (const d of [-1, 0, 1])
          better =
            consider(
              shiftGrid(
                scaled(base, axis, 1 + direction * k),
                axis === 'x' ? d * step : 0,
                axis === 'y' ? d * step : 0,
              ),
            ) || better;
        if (!better) break;
      }
    }
  }
  if (step >= 2) climb(step / 2, 1);
  if (step >= 4) climb(step / 4, 1);
  return best;
}

/**
 * The grid at the skin's own cell size (`sizeDrawn`) placed on whole pixels, a pixel each way around the middle of
 * the grid as found and as climbed, where that fits the sample clearly better (WHOLE_GAIN) than `at`, or `at`. The
 * climbs, in steps of a twentieth of a cell, stop short of a whole pixel on a small cell and can step past it on a
 * large one; a game at its own size draws on whole pixels. Not every game's cells fit best there: xbomb's 50 px
 * ones fit a quarter pixel off, where the climbs find them.
 */
function onWholePixels(
  image: RgbaImage,
  around: Grid[],
  at: { grid: Grid; fit: number },
  skin: Skin,
  sample: Coord[],
  size: number,
): { grid: Grid; fit: number } {
  let best = { grid: at.grid, fit: Infinity };
  const tried = new Set<string>();
  for (const g of around) {
    const sized = {
      ...g,
      pitchX: size,
      pitchY: size,
      left: round(g.left + (g.cols * (g.pitchX - size)) / 2),
      top: round(g.top + (g.rows * (g.pitchY - size)) / 2),
    };
    for (const [dx, dy] of WHOLE_PIXEL) {
      const grid = shiftGrid(sized, dx, dy);
      if (tried.has(`${grid.left},${grid.top}`)) continue;
      tried.add(`${grid.left},${grid.top}`);
      const fit = meanNearest(image, grid, skin, sample, best.fit);
      if (fit < best.fit) best = { grid, fit };
    }
  }
  trace('whole pixels at %d px: fit %s → %s', size, at.fit.toFixed(2), best.fit.toFixed(2));
  return best.fit < WHOLE_GAIN * at.fit ? best : at;
}

/**
 * From a placement on whole pixels, a pixel at a time to the neighbour that fits the sample better, while one does:
 * around a grid found 1.5 px or more off, a pixel each way stops a pixel short of the cells.
 */
function climbWholePixels(
  image: RgbaImage,
  from: { grid: Grid; fit: number },
  skin: Skin,
  sample: Coord[],
): { grid: Grid; fit: number } {
  let best = from;
  for (let steps = 0; steps < MAX_WHOLE_STEPS; steps++) {
    const base = best;
    for (const [dx, dy] of WHOLE_PIXEL.slice(1)) {
      const grid = shiftGrid(base.grid, dx, dy);
      const fit = meanNearest(image, grid, skin, sample, best.fit);
      if (fit < best.fit) best = { grid, fit };
    }
    if (best === base) break;
  }
  return best;
}

const MAX_WHOLE_STEPS = 4;

const WHOLE_PIXEL = [
  [0, 0],
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [1, 1],
  [-1, 1],
  [1, -1],
];
/**
 * A whole-pixel placement is kept when it fits the sample this much better (relative): between what a true
 * placement gains and what noise gives, found by measurement on the fixtures.
 */
const WHOLE_GAIN = 0.9;

/**
 * The size of the skin's square templates the board's pitch is within MAX_SNAP of (none for uneven lines): the game
 * draws its cells on whole pixels, and a grid a pixel off may fit the many plain cells about as well while every
 * count sits a pixel off its template, close to unreadable.
 */
function sizeDrawn(grid: Grid, skin: Skin): number | undefined {
  if (grid.lefts || grid.tops) return undefined;
  const near = (size: number) => abs(grid.pitchX / size - 1) <= MAX_SNAP && abs(grid.pitchY / size - 1) <= MAX_SNAP;
  return skin.templates.find((t) => t.image.width === t.image.height && near(t.image.width))?.image.width;
}

/**
 * The grid with its pitch rounded to a whole or half pixel on each axis (a game draws its cells a whole
 * pixel apart; scaled by 150 % or 250 %, half a pixel) and its start placed anew to half a pixel, around the
 * same middle, when that fits the skin clearly better (SNAP_GAIN, on the sample's median: strips of
 * desktop the grid may still hold fit nowhere either way) and not clearly worse on the sample's mean: the median
 * follows the many plain cells, which may fit best a pixel from where the few glyphs do. On a JPEG the fitted
 * pitch drifts a fraction of a percent, and on sharp textures (KMines' grass) a grid half a pixel off fits far
 * worse, so the climbs, in steps of a twentieth of a cell, stop short of it. GNOME Mines draws its cells a
 * fraction of a pixel apart (22.8 px): a whole pitch fits its JPEG about as well in the sample and worse
 * elsewhere, and is not kept.
 */
export function snapToPixels(image: RgbaImage, grid: Grid, skin: Skin): Grid {
  if (onOwnPixels(grid, skin)) return grid;
  const sample = sampleCells(grid, 64);
  const before = medianNearest(image, grid, skin, sample);
  if (before <= ALIGNED * skin.maxDistance) return grid;
  let snap = { grid, fit: before };
  let order = worstFirst(image, grid, skin, sample);
  for (const axis of ['x', 'y'] as const) {
    for (const candidate of snapped(snap.grid, axis)) {
      const fit = medianNearest(image, candidate, skin, sample, snap.fit, order);
      if (fit < snap.fit) {
        snap = { grid: candidate, fit };
        order = worstFirst(image, candidate, skin, sample);
      }
    }
  }
  trace('snapped to pixels: fit %s → %s', before.toFixed(2), snap.fit.toFixed(2));
  if (snap.fit > SNAP_GAIN * before) return grid;
  return cappedMean(image, snap.grid, skin, sample) <= MEAN_SLACK * cappedMean(image, grid, skin, sample)
    ? snap.grid
    : grid;
}

/** Whether the grid is at the skin's own cell size, on whole pixels (`onWholePixels` placed it): nothing to snap. */
function onOwnPixels(grid: Grid, skin: Skin): boolean {
  return (
    grid.pitchX === grid.pitchY &&
    grid.pitchX === sizeDrawn(grid, skin) &&
    Number.isInteger(grid.left) &&
    Number.isInteger(grid.top)
  );
}

/**
 * The sample's mean distance, each cell's capped at the skin's limit: a cell that fits nowhere counts alike on any
 * grid.
 */
function cappedMean(image: RgbaImage, grid: Grid, skin: Skin, sample: Coord[]): number {
  return mean(nearestDistances(image, grid, skin, sample).map((d) => min(d, skin.maxDistance)));
}

/**
 * Along one axis: the pitch rounded to a whole and to a half pixel (when within MAX_SNAP), each at starts around
 * the same middle. None on an axis whose lines were found uneven (`lefts` / `tops`): there the game drew them so.
 */
function snapped(grid: Grid, axis: 'x' | 'y'): Grid[] {
  if (axis === 'x' ? grid.lefts : grid.tops) return [];
  const [start, pitch, count] = axis === 'x' ? [grid.left, grid.pitchX, grid.cols] : [grid.top, grid.pitchY, grid.rows];
  const middle = start + (count * pitch) / 2;
  const pitches = new Set([round(pitch), round(pitch * 2) / 2].filter((p) => p > 0 && abs(p / pitch - 1) <= MAX_SNAP));
  return [...pitches].flatMap((p) =>
    SNAP_OFFSETS.map((d) => {
      const at = round((middle - (count * p) / 2 + d) * 2) / 2;
      return axis === 'x' ? { ...grid, left: at, pitchX: p } : { ...grid, top: at, pitchY: p };
    }),
  );
}

/** A pitch is rounded only when this close (relative); the start is tried this far either way (pixels). */
const MAX_SNAP = 0.006;
const SNAP_OFFSETS = [-1, -0.5, 0, 0.5, 1];
const SNAP_GAIN = 0.75;
/**
 * A snap may fit the sample's mean this much worse (relative): a right snap of small cells may cost the mean a
 * little while the median gains much; a wrong one costs the mean more, and leaves counts unreadable.
 */
const MEAN_SLACK = 1.05;

/**
 * Where most of a board is plain (open 0s fit anywhere) and hidden cells fit a few pixels either way, only
 * the count glyphs tell where the cells are, and only within a pixel or two: the sample's mean is flat
 * elsewhere and a climb in whole steps of 2 px or more has nothing to follow (with smaller steps the climb
 * lands near enough to feel the glyphs). The cells that fit no template are then tried alone at every half
 * step within two steps each way. Their best shift is returned if there they fit, and twice as well as before
 * (the caller keeps it only if the whole sample fits better too); cells that fit nowhere (a panel in the grid's
 * outer strip) leave the grid as it was.
 */
function searchMisfits(image: RgbaImage, grid: Grid, skin: Skin, sample: Coord[], step: number): Grid {
  const distances = nearestDistances(image, grid, skin, sample);
  const misfits = sample.flatMap((cell, i) =>
    distances[i] > MISFIT * skin.maxDistance ? [{ cell, distance: distances[i] }] : [],
  );
  if (misfits.length < MIN_MISFITS) return grid;
  const cells = misfits.slice(0, MAX_MISFITS).map((m) => m.cell);
  const before = mean(misfits.slice(0, MAX_MISFITS).map((m) => m.distance));
  let best = { grid, fit: before };
  for (let y = -4; y <= 4; y++) {
    for (let x = -4; x <= 4; x++) {
      if (x === 0 && y === 0) continue;
      const shifted = shiftGrid(grid, (x * step) / 2, (y * step) / 2);
      const fit = meanNearest(image, shifted, skin, cells, best.fit);
      if (fit < best.fit) best = { grid: shifted, fit };
    }
  }
  trace(
    'misfits: %d cells, fit %s → %s at %s,%s',
    cells.length,
    before.toFixed(2),
    best.fit.toFixed(2),
    (best.grid.left - grid.left).toFixed(2),
    (best.grid.top - grid.top).toFixed(2),
  );
  return best.fit <= MISFIT * skin.maxDistance && best.fit <= before / 2 ? best.grid : grid;
}

/** A sample cell this far from every template (as a share of the skin's limit) fits nowhere yet. */
const MISFIT = 0.25;
const MIN_MISFITS = 3;
const MAX_MISFITS = 12;

/** A sample this close (as a share of the skin's limit) is aligned already: a crisp screenshot at 100 %. */
const ALIGNED = 0.05;

/** Relative pitch changes tried each way on each axis: up to ±0.6 %, a third of a cell over 60 cells. */
const PITCH_STEPS = [0.002, 0.004, 0.006];

function scaled(grid: Grid, axis: 'x' | 'y', factor: number): Grid {
  if (axis === 'x') {
    const centre = grid.left + (grid.cols * grid.pitchX) / 2;
    return { ...grid, pitchX: grid.pitchX * factor, left: centre - (grid.cols * grid.pitchX * factor) / 2 };
  }
  const middle = grid.top + (grid.rows * grid.pitchY) / 2;
  return { ...grid, pitchY: grid.pitchY * factor, top: middle - (grid.rows * grid.pitchY * factor) / 2 };
}

/** About `count` cells spread over the board. */
export function sampleCells(grid: Grid, count: number): Coord[] {
  const total = grid.rows * grid.cols;
  const stride = max(1, floor(total / count));
  const cells: Coord[] = [];
  for (let i = 0; i < min(count, total); i++) {
    const at = (i * stride + (i % 7)) % total;
    cells.push([floor(at / grid.cols), at % grid.cols]);
  }
  return cells;
}

/**
 * Per-column and per-row edges, for games that lay out whole-pixel cells of two sizes (the uniform pitch
 * then drifts by up to a few pixels mid-board). The edge strips give each line's shift relative to the
 * others; the common offset is then chosen by how well a sample of cells fits the skin. Kept only if the
 * sample fits clearly better than on the uniform grid.
 */
export function alignLines(image: RgbaImage, grid: Grid, skin: Skin): Grid {
  const lined = lineAligned(image, grid);
  if (lined === grid) return grid;
  const sample = sampleCells(grid, 64);
  const before = meanNearest(image, grid, skin, sample);
  const reach = round(0.1 * min(grid.pitchX, grid.pitchY));
  const offsets = Array.from({ length: 2 * reach + 1 }, (_, k) => k - reach);
  // the offset of least fit among those under `below` (measured only until they pass it; the first of equals),
  // else offsets[0]. Measured from the middle out: the offset that fits best is mostly 0 or near it, and a close
  // fit found first stops the others' measures soonest.
  const fromMiddle = [...offsets].sort((a, b) => abs(a) - abs(b) || a - b);
  const bestOffset = (make: (o: number) => Grid, below: number) => {
    let best = { o: offsets[0], fit: Infinity };
    let order: number[] | undefined;
    for (const o of fromMiddle) {
      const fit = meanNearest(image, make(o), skin, sample, min(best.fit, below), order);
      if (fit < best.fit || (fit === best.fit && o < best.o)) {
        best = { o, fit };
        if (fit < Infinity) order = worstFirst(image, make(o), skin, sample);
      }
    }
    return best.o;
  };
  const ox = bestOffset((o) => shiftGrid(lined, o, 0), Infinity);
  // the lines are kept only if the grid then fits clearly better: rows that cannot are not measured whole
  const kept = KEEP_LINES * before;
  const refined = shiftGrid(
    lined,
    ox,
    bestOffset((o) => shiftGrid(lined, ox, o), kept * BEYOND_ROUNDING),
  );
  const after = meanNearest(image, refined, skin, sample, kept * BEYOND_ROUNDING);
  trace('align lines: sample fit %s → %s', before.toFixed(2), after.toFixed(2));
  return after < kept ? refined : grid;
}

/** Per-line edges are kept only if the sample then fits this much better (its mean distance, relative). */
const KEEP_LINES = 0.95;

/**
 * The grid with per-line edges from the edge strips alone (no skin yet: `learn`), the median line kept where
 * the uniform grid put it.
 */
export function lineAligned(image: RgbaImage, grid: Grid): Grid {
  const columns = lineShifts(image, grid, 'x');
  const rows = lineShifts(image, grid, 'y');
  if (columns.every((d) => d === 0) && rows.every((d) => d === 0)) return grid;
  return {
    ...grid,
    lefts: columns.map((d, c) => grid.left + c * grid.pitchX + d),
    tops: rows.map((d, r) => grid.top + r * grid.pitchY + d),
  };
}

/**
 * The grid moved by whole pixels, up to a quarter of a cell each way, to where the image's edges repeat at its
 * pitch most strongly: onto the cells' borders (lines, bevels, steps of shade), with no skin to align to. Each
 * border counts as the stronger of the edges on its two sides (a line a pixel wide has one on each).
 */
export function phaseAligned(image: RgbaImage, grid: Grid): Grid {
  if (grid.lefts || grid.tops) return grid;
  const shiftOf = (vertical: boolean): number => {
    const [pitch, start, count] = vertical ? [grid.pitchX, grid.left, grid.cols] : [grid.pitchY, grid.top, grid.rows];
    const reach = ceil(pitch / 4);
    const from = max(0, floor(start) - reach - 1);
    const profile = edgeProfile(image, grid, vertical, from, ceil(start + count * pitch) + reach + 2);
    const at = (x: number) => profile[x - from] ?? 0;
    let [best, bestScore] = [0, -Infinity];
    for (let d = -reach; d <= reach; d++) {
      let score = 0;
      for (let k = 0; k <= count; k++) {
        const x = round(start + k * pitch) + d;
        score += at(x);
      }
      if (score > bestScore || (score === bestScore && abs(d) < abs(best))) [best, bestScore] = [d, score];
    }
    return best;
  };
  const [dx, dy] = [shiftOf(true), shiftOf(false)];
  return dx || dy ? { ...grid, left: round(grid.left) + dx, top: round(grid.top) + dy } : grid;
}

/**
 * How far each column (axis 'x') or row sits from its uniform position, relative to the median line. Each line's
 * strip of edge strength is scored against the mean strip at every shift; the shifts chosen maximise the
 * total score while moving at most a pixel from one line to the next, as a whole-pixel layout does. The
 * mean strip is then taken again at the shifts found, a few rounds (in the cells' kernel: image/patch.ts's
 * `lineShiftsOn`).
 */
function lineShifts(image: RgbaImage, grid: Grid, axis: 'x' | 'y'): number[] {
  const vertical = axis === 'x';
  const count = vertical ? grid.cols : grid.rows;
  const pitch = vertical ? grid.pitchX : grid.pitchY;
  const start = vertical ? grid.left : grid.top;
  const reach = round(0.2 * pitch);
  const width = floor(pitch);
  const bases = Array.from({ length: count }, (_, i) => round(start + i * pitch));
  const from = floor(start) - reach - 1;
  // indexed by position - from, through the last position a line at its furthest shift looks at
  const profile = edgeProfile(image, grid, vertical, from, bases[count - 1] + reach + width);
  const shifts = lineShiftsOn(
    profile,
    bases.map((b) => b - from),
    reach,
    width,
  );
  const middle = median(shifts);
  return shifts.map((d) => d - middle);
}

/**
 * Summed edge strength across the board at each x (vertical edges) or y (horizontal edges) from `from` through
 * `through`, 0 past the image.
 */
function edgeProfile(image: RgbaImage, grid: Grid, vertical: boolean, from: number, through: number): Float64Array {
  const [along, across] = vertical ? [image.width, image.height] : [image.height, image.width];
  const acrossFrom = max(0, round(vertical ? grid.top : grid.left));
  const acrossTo = min(
    across,
    round(vertical ? grid.top + grid.rows * grid.pitchY : grid.left + grid.cols * grid.pitchX),
  );
  const to = min(
    along - 1,
    ceil(
      (vertical ? grid.left + grid.cols * grid.pitchX : grid.top + grid.rows * grid.pitchY) +
        0.2 * (vertical ? grid.pitchX : grid.pitchY),
    ) + 1,
  );
  const values = new Float64Array(max(through, to) - from + 1);
  values.set(edgeSums(image, vertical, from, to, acrossFrom, acrossTo));
  return values;
}

type Side = 'left' | 'right' | 'top' | 'bottom';

/**
 * Adds outer rows and columns whose cells the skin reads: a strip of open cells with faint borders that
 * the grid-line test left out. A strip must be read almost whole (GROW_READ) and hold a count or a flag,
 * so a plain background the colour of open or hidden cells never passes for board.
 */
export function growToSkin(image: RgbaImage, grid: Grid, skin: Skin): Grid {
  let current = grid;
  for (let added = 0, changed = true; changed && added < MAX_GROWTH; added++) {
    changed = false;
    for (const side of ['left', 'right', 'top', 'bottom'] as Side[]) {
      const bigger = extended(current, side);
      if (!within(image, bigger)) continue;
      const readings = classify(image, bigger, skin, { cells: stripCells(bigger, side), search: false });
      const read = readings.filter((r) => !r.unreadable);
      if (read.length >= GROW_READ * readings.length && read.some((r) => /^[1-8F]$/.test(r.cell))) {
        current = bigger;
        changed = true;
      }
    }
  }
  return current;
}

const GROW_READ = 0.8;
/** Rounds of growth (a strip a side each): smeared lines in a lossy image can leave a grid several columns short. */
const MAX_GROWTH = 16;

function extended(g: Grid, side: Side): Grid {
  if (side === 'left') return { ...g, cols: g.cols + 1, left: g.left - g.pitchX };
  if (side === 'right') return { ...g, cols: g.cols + 1 };
  if (side === 'top') return { ...g, rows: g.rows + 1, top: g.top - g.pitchY };
  return { ...g, rows: g.rows + 1 };
}

function stripCells(g: Grid, side: Side): Coord[] {
  if (side === 'left' || side === 'right')
    return Array.from({ length: g.rows }, (_, r): Coord => [r, side === 'left' ? 0 : g.cols - 1]);
  return Array.from({ length: g.cols }, (_, c): Coord => [side === 'top' ? 0 : g.rows - 1, c]);
}

function within(image: RgbaImage, g: Grid): boolean {
  return (
    g.left >= 0 && g.top >= 0 && g.left + g.cols * g.pitchX <= image.width && g.top + g.rows * g.pitchY <= image.height
  );
}
