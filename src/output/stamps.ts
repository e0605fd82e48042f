// What render draws, as one small SVG: each cell's marks once per look, and the legend's pieces. Cells whose marks
// look alike (the same marks, the same offset within a pixel) share one tile, which is stamped onto each of them,
// so the SVG rasterised is a few tiles instead of the whole board; tiles drawn for an earlier screenshot are not
// drawn again (render.ts keeps them), so most screenshots of a batch rasterise nothing.
import type { Coord, Grid, Rect } from '../common/types';
import { cellLeft, cellTop } from '../image/pixels';
import type { Piece } from './legend';
import {
  conflictMark,
  guessMark,
  HEAT_GRADIENT,
  heatMark,
  type Marks,
  mineMark,
  provenFlagMark,
  safeMark,
  unprovenFlagMark,
  unreadableMark,
  wrongFlagMark,
} from './marks';

/** A tile (its size and SVG: `${width}×${height} ${svg}`), and where on the screenshot its top left corner goes. */
export interface Stamp {
  left: number;
  top: number;
  tile: string;
}

export interface Sheet {
  svg: string;
  /** In the order to paint them: the cells' marks, then the legend. */
  stamps: Stamp[];
  /** The tiles drawn on the sheet (as `Stamp.tile` names them): where. Tiles `drawn` before are not on it. */
  tiles: Map<string, Rect>;
}

/**
 * Pixels of a tile around its cell. A mark's antialiased edge reaches a little over 2 px past its cell (the
 * conflict frame's dark edge, the safe tick's at small sizes): with 3, a tile's edge is always clear, with 2 it
 * is not (test/render.test.ts).
 */
const PAD = 3;

/**
 * The marks of every cell and the legend's pieces, as stamps, and the sheet of the tiles among them for which
 * `drawn` is not true (their pictures are kept from an earlier sheet).
 */
export function stampSheet(
  grid: Grid,
  marks: Marks,
  legend: Piece[],
  drawn: (tile: string) => boolean = () => false,
): Sheet {
  const tileWidth = Math.ceil(grid.pitchX) + 1 + 2 * PAD;
  const tileHeight = Math.ceil(grid.pitchY) + 1 + 2 * PAD;
  const pieces: Piece[] = cellDrawings(grid, marks).map(({ left, top, svg }) => ({
    svg,
    left: left - PAD,
    top: top - PAD,
    width: tileWidth,
    height: tileHeight,
  }));
  const tiles = new Map<string, Rect>();
  const parts: string[] = [];
  const all = [...pieces, ...legend];
  const stamps: Stamp[] = all.map(({ svg, left, top, width, height }) => ({
    left,
    top,
    tile: `${width}×${height} ${svg}`,
  }));
  // tiles side by side on shelves: a shelf as high as its highest tile, the next one under it. libvips draws a
  // gradient (the heat map's key) a level apart at another x on the sheet: those tiles go first, at its left edge,
  // so that a tile kept from an earlier sheet is the tile drawn afresh.
  const gradient = all.map(({ svg }) => svg.includes('url(#'));
  let [x, y, shelfHeight, sheetWidth] = [0, 0, 0, 1];
  for (const i of [...all.keys()].sort((a, b) => Number(gradient[b]) - Number(gradient[a]))) {
    const { svg, width, height } = all[i];
    const { tile } = stamps[i];
    if (!tiles.has(tile) && !drawn(tile)) {
      if (x > 0 && (x + width > SHEET_WIDTH || gradient[i])) [x, y, shelfHeight] = [0, y + shelfHeight, 0];
      tiles.set(tile, { left: x, top: y, width, height });
      parts.push(`<g transform="translate(${x},${y})">${svg}</g>`);
      x += width;
      shelfHeight = Math.max(shelfHeight, height);
      sheetWidth = Math.max(sheetWidth, x);
    }
  }
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${sheetWidth}" height="${Math.max(1, y + shelfHeight)}">`,
    HEAT_GRADIENT,
    ...parts,
    '</svg>',
  ].join('');
  return { svg, stamps, tiles };
}

/** Tiles go side by side up to about this many pixels, then on the next row. */
const SHEET_WIDTH = 1024;

/**
 * Each marked cell's marks (in the order they were drawn over one another: heat, then the certain cells, flags,
 * conflict and guess), drawn for a tile whose corner is at (left, top) less PAD on the screenshot: whole pixels,
 * so the cell keeps its offset within a pixel and the tile is the cell's own drawing moved.
 */
function cellDrawings(grid: Grid, marks: Marks): { left: number; top: number; svg: string }[] {
  const odds = new Map((marks.heat ?? []).map(({ cell, p }) => [String(cell), p]));
  const heat = (tile: Grid, cell: Coord, at: Coord) => heatMark(tile, cell, odds.get(String(at)) as number);
  const drawers: [Coord[], (tile: Grid, cell: Coord, at: Coord) => string][] = [
    [(marks.heat ?? []).map(({ cell }) => cell), heat],
    [marks.mines, mineMark],
    [marks.safe, safeMark],
    [marks.unreadable, unreadableMark],
    [marks.provenFlags, provenFlagMark],
    [marks.unprovenFlags ?? [], unprovenFlagMark],
    [marks.wrongFlags, wrongFlagMark],
    [marks.conflict ?? [], conflictMark],
    [marks.bestGuess ? [marks.bestGuess.cell] : [], guessMark],
  ];
  const cells = new Map<string, { left: number; top: number; tile: Grid; looks: string[]; svg: string }>();
  for (let kind = 0; kind < drawers.length; kind++) {
    const [coords, draw] = drawers[kind];
    for (const [row, col] of coords) {
      const name = `${row},${col}`;
      let cell = cells.get(name);
      if (!cell) {
        const x = cellLeft(grid, col);
        const y = cellTop(grid, row);
        const left = Math.floor(x);
        const top = Math.floor(y);
        const tile = {
          rows: 1,
          cols: 1,
          left: x - left + PAD,
          top: y - top + PAD,
          pitchX: grid.pitchX,
          pitchY: grid.pitchY,
        };
        cell = { left, top, tile, looks: looksOf(tile), svg: '' };
        cells.set(name, cell);
      }
      // the heat mark shows the cell's own odds: drawn each time
      cell.svg +=
        draw === heat
          ? draw(cell.tile, [0, 0], [row, col])
          : (cell.looks[kind] ??= draw(cell.tile, [0, 0], [row, col]));
    }
  }
  return [...cells.values()];
}

/**
 * Each kind of mark as drawn before on a tile of this geometry (the pitch, the cell's offset within a pixel): a
 * batch of one game's screenshots draws the same marks on the same tiles again and again, and building their SVG
 * is costly (its code is among the costliest V8 compiles in a batch). At most MAX_LOOKS tiles are kept.
 */
function looksOf(tile: Grid): string[] {
  const key = `${tile.pitchX} ${tile.pitchY} ${tile.left} ${tile.top}`;
  let looks = drawnLooks.get(key);
  if (!looks) {
    if (drawnLooks.size >= MAX_LOOKS) drawnLooks.clear();
    drawnLooks.set(key, (looks = []));
  }
  return looks;
}

const drawnLooks = new Map<string, string[]>();
const MAX_LOOKS = 4096;
