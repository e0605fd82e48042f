// Which skin reads the board, and what it reads: the candidate grids scored against every skin, the grid
// aligned to the chosen one, outer strips that are not board trimmed; the skin-free fallback when no skin
// fits; boards too small, too fine or read too poorly refused.
import { debuglog } from 'node:util';
import type { Analysis, Cell, Grid, Reading, Rect, RgbaImage, Skin, SkinFit } from '../common/types';
import { trimGrid } from '../locate/grid';
import { classify } from './classify';
import { BEYOND_ROUNDING, meanNearest, nearestDistances } from './nearest';
import { alignLines, alignToSkin, growToSkin, phaseAligned, sampleCells, snapToPixels } from './align';
import { mean, median } from '../common/stats';
import { scaleGrid, shiftGrid } from '../image/pixels';
import { builtinSkinNames, loadSkin } from '../skin/skin';
import { SKINLESS, readWithoutSkin } from './skinless';
import { readResampled } from './resampled';
import { type Candidate, latticeBeyond, readBoundedWithoutSkin } from './bounds';

const trace = debuglog('mine-assist');

/**
 * The board's cells read with the skin that fits best (or the one named); with `--skin none`, or when no
 * skin fits, the skin-free fallback reads what it is sure of.
 */
export async function readBoard(
  view: RgbaImage,
  candidates: Candidate[],
  skinName: SkinChoice,
  found: Partial<Analysis>,
  k: number,
): Promise<SkinReading> {
  const except = typeof skinName === 'object' && 'except' in skinName ? skinName.except : [];
  if (skinName === 'none')
    return readSkinFree(view, candidates, 0, except) ?? readSkinless(view, candidates[0].grid(), 0, except);
  const chosen = await chooseBoard(view, candidates, skinName);
  Object.assign(found, { grid: scaleGrid(chosen.grid, k), region: regionOf(scaleGrid(chosen.grid, k)) });
  const read = readCells(view, chosen.grid, chosen.skin);
  const unreadable = unreadableShare(read.readings);
  const misplaced = !cellsPlaced(view, read.grid, read.skin);
  const distant = read.fit.meanDistance > POOR_FIT * read.skin.maxDistance;
  const small = Math.min(read.grid.rows, read.grid.cols) < MIN_SIDE_CELLS;
  const beyond = givenSkin(skinName) ? 0 : latticeBeyond(read.grid, chosen.boxes());
  const partial = beyond > MAX_BEYOND;
  const { rows, cols } = read.grid;
  trace('skin %s reads %d×%d; lattice beyond it %s', read.skin.name, rows, cols, beyond.toFixed(3));
  if (!distant && !misplaced && !small && !partial && unreadable <= MAX_UNREADABLE) {
    const reread = { ...read, readings: rereadOnPixels(view, read) };
    return givenSkin(skinName) ? reread : (readsMoreSkinFree(view, reread, except) ?? reread);
  }
  const shrunk = misplaced || small || partial ? null : readShrunk(view, read);
  if (shrunk) return shrunk;
  // no skin explains the board: the locator's grids, bounded and read without one (the closest skin's placement of
  // its grid is one more, if bounding keeps all of it: a grid as fitted can sit a little off where a skin's climb
  // set it right, but a climb can also stretch the pitch, and then the far cells straddle two)
  const placed = { grid: () => chosen.grid, boxes: chosen.boxes, whole: true };
  const skinless = givenSkin(skinName) ? null : readSkinFree(view, [...candidates, placed], 1 - MAX_UNREADABLE, except);
  if (skinless) return skinless;
  if (distant)
    throw new Error(
      `no skin fits this board (closest: ${read.skin.name}, mean distance ${read.fit.meanDistance.toFixed(1)}); ` +
        "teach it one with 'mine-assist learn'",
    );
  if (misplaced) {
    throw new MisplacedError(
      `no board found: the grid of ${read.grid.rows}×${read.grid.cols} cells here fits skin ${read.skin.name} ` +
        'as well half a cell off, so these are not cells it can place',
      () => {
        const moved = placedHalfACellOver(view, read);
        const poor =
          !moved ||
          moved.fit.meanDistance > POOR_FIT * moved.skin.maxDistance ||
          Math.min(moved.grid.rows, moved.grid.cols) < MIN_SIDE_CELLS ||
          unreadableShare(moved.readings) > MAX_UNREADABLE;
        return poor ? null : { ...moved, readings: rereadOnPixels(view, moved) };
      },
    );
  }
  if (small || partial)
    throw new Error(`no board found: only ${read.grid.rows}×${read.grid.cols} cells look like skin ${read.skin.name}`);
  throw new Error(
    `the board is read poorly: ${Math.round(100 * unreadable)}% of its ${read.readings.length} cells ` +
      `match no template of skin ${read.skin.name}`,
  );
}

/**
 * The grid read could not be placed by the skin. `halfACellOver` reads it again from half a cell over (a last
 * resort, once every other way to find the board failed: from other outlines the grid is usually truer).
 */
export class MisplacedError extends Error {
  constructor(
    message: string,
    readonly halfACellOver: () => SkinReading | null,
  ) {
    super(message);
  }
}

/**
 * A grid the skin cannot place may sit half a cell off (the outlines of textured tiles such as KMines' grass can
 * fall there, and aligning moves a grid a few pixels only): its cells then straddle two of the board's, so it is
 * read again half a cell back with a row or column more (each way, then both), strips that are not board trimmed
 * as always, and kept only if the skin places those cells (the best fit of them).
 */
function placedHalfACellOver(view: RgbaImage, read: SkinReading): SkinReading | null {
  const { grid, skin } = read;
  if (grid.lefts || grid.tops) return null;
  const over = (x: number, y: number): Grid => ({
    ...grid,
    left: grid.left - (x * grid.pitchX) / 2,
    top: grid.top - (y * grid.pitchY) / 2,
    cols: grid.cols + x,
    rows: grid.rows + y,
  });
  const placed = [over(1, 0), over(0, 1), over(1, 1)]
    .filter((g) => g.left >= 0 && g.top >= 0)
    .map((g) => readCells(view, g, skin))
    .filter((r) => cellsPlaced(view, r.grid, skin));
  return placed.sort((a, b) => a.fit.meanDistance - b.fit.meanDistance)[0] ?? null;
}

/**
 * A skin that leaves more than a few cells of its board unreadable may not be the board's: the skin-free reader
 * reads the same grid, and stands in when it reads more cells. A cell the two read differently is unreadable.
 */
function readsMoreSkinFree(view: RgbaImage, read: SkinReading, except: readonly string[]): SkinReading | null {
  const unread = unreadableShare(read.readings);
  if (unread <= SKIN_FREE_RIVAL) return null;
  const known = (readings: Reading[]) => readings.filter((r) => !r.unreadable).length;
  // the grid as the skin aligned it, or moved onto the cells' own borders (a wrong skin may shift it a pixel or two)
  const moved = phaseAligned(view, read.grid);
  const rival = [read.grid, ...(moved === read.grid ? [] : [moved])]
    .map((grid) => readSkinless(view, grid, 1 - unread, except))
    .reduce((a, b) => (known(b.readings) > known(a.readings) ? b : a));
  if (!readsEnough(rival.readings) || known(rival.readings) <= known(read.readings)) return null;
  trace('skin-free reads %d cells where skin %s reads %d', known(rival.readings), read.skin.name, known(read.readings));
  const bySkin = new Map(read.readings.map((r) => [`${r.row},${r.col}`, r]));
  const readings = rival.readings.map((r) => {
    const other = bySkin.get(`${r.row},${r.col}`);
    return !r.unreadable && other && !other.unreadable && other.cell !== r.cell
      ? { ...r, cell: '.', unreadable: true }
      : r;
  });
  return { ...rival, readings };
}

/** A skin leaving more than this share of its board unreadable has the skin-free reader read the grid too. */
const SKIN_FREE_RIVAL = 0.05;

/**
 * A screenshot shrunk below the skin's templates (a 12 px skin on a board saved at 50 %, 6 px cells) may
 * fit them poorly compared the usual way, both area-averaged to one size. Read again on its own pixels
 * (resampled.ts), each cell that reads there gets that distance, and the board is judged again.
 */
function readShrunk(view: RgbaImage, read: SkinReading): SkinReading | null {
  if (!mayReadShrunk(view, read)) return null;
  const readings = rereadOnPixels(view, read);
  if (readings === read.readings) return null;
  const meanDistance = mean(distances(readings));
  const unreadable = unreadableShare(readings);
  trace('read shrunk: mean distance %s, %s unreadable', meanDistance.toFixed(2), unreadable.toFixed(3));
  if (meanDistance > POOR_FIT * read.skin.maxDistance || unreadable > MAX_UNREADABLE) return null;
  return { ...read, readings, fit: skinFit(meanDistance, read.skin) };
}

/**
 * Whether a spread sample of the cells reads well enough on the screenshot's pixels for the whole board to: each
 * unreadable cell, and each count of a board smaller than the templates, costs hundreds of template placements
 * there, and a skin that is not the board's reads few of them.
 */
function mayReadShrunk(view: RgbaImage, read: SkinReading): boolean {
  const { readings, skin } = read;
  if (readings.length <= 2 * SHRUNK_PROBE) return true;
  const step = Math.floor(readings.length / SHRUNK_PROBE);
  const sample = readings.filter((_, i) => i % step === 0);
  const after = readResampled(view, read.grid, skin, sample);
  const unreadable = unreadableShare(after);
  const meanDistance = mean(distances(after));
  trace('read shrunk, a sample: mean distance %s, %s unreadable', meanDistance.toFixed(2), unreadable.toFixed(3));
  return (
    unreadable <= MAX_UNREADABLE + SHRUNK_SLACK && meanDistance <= (1 + SHRUNK_SLACK) * POOR_FIT * skin.maxDistance
  );
}

/** Cells sampled first, and how far past the limits the sample may go (a share of cells; relative for the fit). */
const SHRUNK_PROBE = 32;
const SHRUNK_SLACK = 0.05;

/**
 * Unreadable cells read again on the screenshot's own pixels (resampled.ts); a 0 read there beside a closed
 * cell is distrusted as the first reading's were.
 */
export function rereadOnPixels(view: RgbaImage, read: SkinReading): Reading[] {
  const readings = readResampled(view, read.grid, read.skin, read.readings);
  return readings === read.readings ? readings : distrustLoneZeros(read.grid, readings);
}

/**
 * The skin-free reading stands in for a skin only if it reads most cells and some counts: on a grid that
 * is not the board's (two cells to a grid cell), it reads little, and what it reads cannot be trusted.
 */
function readsEnough(readings: Reading[]): boolean {
  const known = readings.filter((r) => !r.unreadable);
  return (
    known.filter((r) => /[1-8]/.test(r.cell)).length >= 3 && known.length >= (1 - MAX_UNREADABLE) * readings.length
  );
}

/**
 * The candidate grids bounded and read skin-free (bounds.ts): the best reading that reads enough; with `atLeast` 0
 * (`--skin none`), the first candidate's reading when none does.
 */
function readSkinFree(
  view: RgbaImage,
  candidates: Candidate[],
  atLeast: number,
  except: readonly string[],
): SkinReading | null {
  const read = readBoundedWithoutSkin(view, candidates, readsEnough, atLeast, atLeast === 0, except);
  return read && skinlessReading(read.grid, read.readings);
}

function readSkinless(view: RgbaImage, grid: Grid, atLeast = 0, except: readonly string[] = []): SkinReading {
  return skinlessReading(grid, readWithoutSkin(view, grid, atLeast, except));
}

function skinlessReading(grid: Grid, readings: Reading[]): SkinReading {
  const known = readings.filter((r) => !r.unreadable).length / Math.max(1, readings.length);
  return {
    skin: { name: SKINLESS, cellSize: grid.pitchX, inset: 0, maxDistance: 0, maxRatio: 0, templates: [] },
    readings,
    grid,
    fit: { meanDistance: 0, maxDistance: 0, fit: known },
  };
}

/**
 * A built-in skin's name or a skin folder, 'none', a skin in hand (learn's, not yet saved), every built-in skin
 * (undefined), or every built-in skin but some (`except`: how the eval reads a look as if it were never taught).
 */
export type SkinChoice = string | Skin | { except: string[] } | undefined;

/** Whether the choice is a skin given (a name, a folder or a skin in hand) rather than the built-in ones. */
export const givenSkin = (choice: SkinChoice): choice is string | Skin =>
  typeof choice === 'string' || (typeof choice === 'object' && !('except' in choice));

const skinCache = new Map<string, Promise<Skin>>();

/**
 * Starts loading the skins a reading will try, so that it happens while the screenshot decodes (on libvips'
 * threads). A skin that fails to load still fails the reading: its error waits for it.
 */
export function preloadSkins(skinName: SkinChoice): void {
  if (skinName !== 'none') skinsToTry(skinName).catch(() => undefined);
}

const triedSkins = new Map<string, Promise<Skin[]>>();

/** The skin named, or every built-in skin; loaded once per process. */
function skinsToTry(skinName: SkinChoice): Promise<Skin[]> {
  if (typeof skinName === 'object' && !('except' in skinName)) return Promise.resolve([skinName]);
  const except = typeof skinName === 'object' ? skinName.except : [];
  const key = typeof skinName === 'string' ? skinName : `except ${except.join(' ')}`;
  if (!triedSkins.has(key)) {
    triedSkins.set(
      key,
      typeof skinName === 'string'
        ? cachedSkin(skinName).then((skin) => [skin])
        : builtinSkinNames().then((names) => Promise.all(names.filter((n) => !except.includes(n)).map(cachedSkin))),
    );
  }
  return triedSkins.get(key) as Promise<Skin[]>;
}

function cachedSkin(nameOrDir: string): Promise<Skin> {
  if (!skinCache.has(nameOrDir)) skinCache.set(nameOrDir, loadSkin(nameOrDir));
  return skinCache.get(nameOrDir) as Promise<Skin>;
}

export interface SkinReading {
  skin: Skin;
  readings: Reading[];
  grid: Grid;
  fit: SkinFit;
}

/**
 * Reads every cell with the chosen skin, after aligning the grid to it. Outer rows and columns that mostly
 * match none of a skin's templates, or read as nothing for sure, are not board: they are trimmed — and
 * again once 0s the game would have opened are distrusted (a side panel's plain columns read like 0s).
 * "Match" is the skin's own limit, loosened up to twice that when the whole board reads poorly (a blurred
 * or rescaled shot), so a poor shot is not cut down to its best rows.
 */
function readCells(image: RgbaImage, found: Grid, skin: Skin): SkinReading {
  // snapped before growing (a grid a fifth of a pixel off reads its edge strips poorly) and after the lines moved
  const aligned = snapToPixels(image, alignToSkin(image, found, skin), skin);
  const fitted = snapToPixels(image, alignLines(image, growToSkin(image, aligned, skin), skin), skin);
  const all = classify(image, fitted, skin);
  const limit = Math.min(2 * skin.maxDistance, Math.max(skin.maxDistance, 4 * median(distances(all))));
  const first = trimGrid(fitted, readable(all, limit));
  const once = within(all, first);
  const again = trimGrid(first.grid, readable(once));
  const { grid } = again;
  const readings =
    again.grid.rows === first.grid.rows && again.grid.cols === first.grid.cols
      ? once
      : within(all, { grid, top: first.top + again.top, left: first.left + again.left });
  const meanDistance = mean(distances(readings));
  trace('skin %s: %d×%d, mean distance %s', skin.name, grid.rows, grid.cols, meanDistance.toFixed(2));
  return { skin, readings, grid, fit: skinFit(meanDistance, skin) };
}

/** The readings inside a trimmed grid, numbered from its corner, lone 0s distrusted. */
function within(all: Reading[], { grid, top, left }: { grid: Grid; top: number; left: number }): Reading[] {
  const inside: Reading[] = [];
  for (const r of all) {
    if (r.row < top || r.row >= top + grid.rows || r.col < left || r.col >= left + grid.cols) continue;
    inside.push(top === 0 && left === 0 ? r : { ...r, row: r.row - top, col: r.col - left });
  }
  return distrustLoneZeros(grid, inside);
}

export function distances(readings: Reading[]): number[] {
  const all: number[] = [];
  for (const r of readings) all.push(r.distance);
  return all;
}

/** Per reading, whether it is readable (and within `limit` of its template, if given). */
function readable(readings: Reading[], limit?: number): boolean[] {
  const passes: boolean[] = [];
  for (const r of readings) passes.push((limit === undefined || r.distance <= limit) && !r.unreadable);
  return passes;
}

export function skinFit(meanDistance: number, skin: Skin): SkinFit {
  return { meanDistance, maxDistance: skin.maxDistance, fit: Math.max(0, 1 - meanDistance / skin.maxDistance) };
}

/**
 * Whether the skin tells where the cells are: moved by half a cell, the grid must fit clearly worse. A
 * skin of textured tiles (KMines' grass) fits a grid half a cell off, or a lawn beside the board, almost
 * as well as the board itself.
 */
function cellsPlaced(image: RgbaImage, grid: Grid, skin: Skin): boolean {
  const cells = sampleCells(grid, 64);
  const placed = meanNearest(image, grid, skin, cells);
  const worse = PHASE_MARGIN * placed + PHASE_FLOOR;
  // each shifted grid is measured only until it is clearly worse (Infinity then)
  const fitOf = (g: Grid) => meanNearest(image, g, skin, cells, worse * BEYOND_ROUNDING);
  const [dx, dy] = [grid.pitchX / 2, grid.pitchY / 2];
  const moved = Math.min(fitOf(shiftGrid(grid, dx, 0)), fitOf(shiftGrid(grid, 0, dy)), fitOf(shiftGrid(grid, dx, dy)));
  trace('cells placed: fit %s, half a cell off %s', placed.toFixed(2), moved.toFixed(2));
  return moved >= worse;
}

/** Half a cell off, a grid must fit this many times worse, and this much (RMS) worse, than the grid read. */
const PHASE_MARGIN = 1.5;
const PHASE_FLOOR = 3;

/**
 * A skin whose templates sit this far (as a share of its match limit) from the board's cells on average
 * is the wrong skin: reading with it could misread cells that still pass the per-cell tests.
 */
export const POOR_FIT = 0.5;

/**
 * Cells smaller than this (pixels) are not read: shrunk that far, a template is a few pixels and matches a
 * fine texture as well as a board. Boards at 50 % with 6 px cells are read; a dotted backdrop of 5 px "cells"
 * must still lose to the real board (test/vision.test.ts).
 */
const MIN_PITCH = 5;

/** Fewer rows or columns than this is a few cell-like tiles (a toolbar, a corner of another game), not a board. */
const MIN_SIDE_CELLS = 4;

/**
 * A skin that reads a grid with more than this share of the lattice's outlines beyond it explains only part of the
 * board (a wrong skin matching its hidden cells): no skin explains the board.
 */
const MAX_BEYOND = 0.2;

/** A board with more of its cells unreadable than this is not a board the skin reads: no answer is better. */
export const MAX_UNREADABLE = 0.3;

/**
 * The candidate board and skin whose templates sit closest to a spread sample of its cells (as a share of
 * the skin's limit): the first candidate that fits well, else the closest of all once each candidate's grid
 * is aligned to its closest skin. With no skin named, every built-in skin is tried.
 */
async function chooseBoard(
  image: RgbaImage,
  candidates: Candidate[],
  skinName: SkinChoice,
): Promise<{ grid: Grid; skin: Skin; boxes: () => Rect[] }> {
  const skins = await skinsToTry(skinName);
  if (!skins.length) throw new Error('no skins available');
  const fitOf = (grid: Grid, skin: Skin) =>
    mean(nearestDistances(image, grid, skin, sampleCells(grid, 64))) / skin.maxDistance;
  const closest: { grid: Grid; skin: Skin; fit: number; rivals: Skin[]; boxes: () => Rect[] }[] = [];
  for (const { grid: gridOf, boxes } of candidates) {
    const grid = gridOf();
    if (Math.min(grid.pitchX, grid.pitchY) < MIN_PITCH) continue;
    const best = closestSkin(image, grid, skins);
    trace(
      'board %d×%d pitch %s: closest skin %s, sample fit %s',
      grid.rows,
      grid.cols,
      grid.pitchX.toFixed(2),
      best.skin.name,
      best.fit.toFixed(3),
    );
    if (best.fit <= GOOD_SAMPLE) return { ...best, boxes };
    closest.push({ ...best, boxes });
  }
  // a skin that sits a little farther on the grid as found may fit far better once the grid is aligned to it
  const aligned = closest.flatMap(({ grid, skin, rivals, boxes }) =>
    [skin, ...rivals].map((s) => {
      const shifted = alignToSkin(image, grid, s);
      return { grid: shifted, skin: s, fit: fitOf(shifted, s), boxes };
    }),
  );
  if (!aligned.length) throw new Error(`no board found: the only grids in the image have cells under ${MIN_PITCH} px`);
  return aligned.reduce((a, b) => (b.fit < a.fit ? b : a));
}

/** A sample this close (mean distance as a share of the skin's limit) ends the search for the board. */
const GOOD_SAMPLE = 0.25;

/**
 * The skin whose templates sit closest to the sample of 64 cells (as a share of the skin's limit). Every
 * skin is measured on a quarter of the sample first; only those within CONTENDER of the closest there are
 * measured on the rest: a screenshot's own game fits that quarter several times better than the others.
 */
function closestSkin(
  image: RgbaImage,
  grid: Grid,
  skins: Skin[],
): { grid: Grid; skin: Skin; fit: number; rivals: Skin[] } {
  const sample = sampleCells(grid, 64);
  const quarter = sample.filter((_, i) => i % 4 === 0);
  const rest = sample.filter((_, i) => i % 4 !== 0);
  // The skin that read the last board is measured first: its lead lets the others stop measuring early.
  const order =
    lastClosest && skins.includes(lastClosest) ? [lastClosest, ...skins.filter((s) => s !== lastClosest)] : skins;
  const share = new Map<Skin, number>();
  let lead = Infinity;
  for (const skin of order) {
    const past = (CONTENDER.ratio * lead + CONTENDER.margin) * skin.maxDistance * BEYOND_ROUNDING;
    share.set(skin, meanNearest(image, grid, skin, quarter, past) / skin.maxDistance);
    lead = Math.min(lead, share.get(skin) as number);
  }
  const measured = skins
    .filter((skin) => (share.get(skin) as number) <= CONTENDER.ratio * lead + CONTENDER.margin)
    .map((skin) => ({
      grid,
      skin,
      fit: mean(nearestDistances(image, grid, skin, [...quarter, ...rest])) / skin.maxDistance,
    }));
  const closest = measured.reduce((a, b) => (b.fit < a.fit ? b : a));
  const rivals = measured.filter((m) => m !== closest && m.fit <= RIVAL * closest.fit).map((m) => m.skin);
  lastClosest = closest.skin;
  return { ...closest, rivals };
}

let lastClosest: Skin | undefined;

const CONTENDER = { ratio: 3, margin: 0.15 };

/** Skins within this factor of the closest on a grid not yet aligned are aligned too, when no sample fits well. */
const RIVAL = 1.25;

/**
 * A game opens every neighbour of an open 0 by itself, so a 0 read next to a hidden or flagged cell is a
 * misreading (or not a cell at all): it becomes unreadable, which can only remove facts. A neighbour that
 * is unreadable only because it sits between two counts (a 2 or a 3?) is open all the same.
 */
export function distrustLoneZeros(grid: Grid, readings: Reading[]): Reading[] {
  const trusted: Reading[] = [];
  for (const r of readings)
    trusted.push(
      r.cell === '0' && nextToClosed(grid, readings, r.row, r.col) ? { ...r, cell: '.', unreadable: true } : r,
    );
  return trusted;
}

function nextToClosed(grid: Grid, readings: Reading[], row: number, col: number): boolean {
  for (let r = Math.max(0, row - 1); r <= Math.min(grid.rows - 1, row + 1); r++) {
    for (let c = Math.max(0, col - 1); c <= Math.min(grid.cols - 1, col + 1); c++) {
      if ((r !== row || c !== col) && closed(readings[r * grid.cols + c])) return true;
    }
  }
  return false;
}

function closed(r: Reading): boolean {
  return (
    r.cell === 'F' || r.cell === '?' || (r.cell === '.' && !(r.unreadable && isCount(r.best) && isCount(r.runnerUp)))
  );
}

function isCount(cell: Cell): boolean {
  return cell >= '1' && cell <= '8';
}

export function unreadableShare(readings: Reading[]): number {
  let unreadable = 0;
  for (const r of readings) if (r.unreadable) unreadable++;
  return unreadable / Math.max(1, readings.length);
}

export function regionOf(grid: Grid): Analysis['region'] {
  return {
    left: Math.round(grid.left),
    top: Math.round(grid.top),
    width: Math.round(grid.cols * grid.pitchX),
    height: Math.round(grid.rows * grid.pitchY),
  };
}
