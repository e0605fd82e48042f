// What render draws, as one small SVG: the legend, and each cell's marks once per look. Cells whose marks look
// alike (the same marks, the same offset within a pixel) share one tile, which is stamped onto each of them, so
// the SVG rasterised is a few tiles and the legend instead of the whole board; tiles drawn for an earlier
// screenshot are not drawn again (render.ts keeps them).
import type { Coord, Grid, Rect } from './types';
import { cellLeft, cellTop } from './pixels';
import { conflictMark, guessMark, HEAT_GRADIENT, heatMark, type Marks, mineMark, provenFlagMark, safeMark, unprovenFlagMark, unreadableMark, wrongFlagMark } from './marks';

/**
 * A picture and where on the screenshot it goes (its top left corner): a tile (`tile`: its size and SVG; the
 * whole of its picture, `from`), or the legend (`from`: its part of the sheet).
 */
export interface Stamp {
  from: Rect;
  left: number;
  top: number;
  tile?: string;
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
 * The legend (its box on the screenshot) and the marks of every cell, laid out on one sheet; tiles for which
 * `drawn` is true are left off it (their pictures are kept from an earlier sheet).
 */
export function stampSheet(grid: Grid, marks: Marks, legend: { svg: string; box: Rect }, bounds: { width: number; height: number }, drawn: (tile: string) => boolean = () => false): Sheet {
  const tileWidth = Math.ceil(grid.pitchX) + 1 + 2 * PAD;
  const tileHeight = Math.ceil(grid.pitchY) + 1 + 2 * PAD;
  const whole = { left: 0, top: 0, width: tileWidth, height: tileHeight };
  const key = legendArea(legend.box, bounds);
  const columns = Math.max(1, Math.floor(Math.max(key.width, SHEET_WIDTH) / tileWidth));
  const tiles = new Map<string, Rect>();
  const parts: string[] = [];
  const stamps: Stamp[] = [];
  for (const { left, top, svg } of cellDrawings(grid, marks)) {
    const tile = `${tileWidth}×${tileHeight} ${svg}`;
    if (!tiles.has(tile) && !drawn(tile)) {
      const at = { left: (tiles.size % columns) * tileWidth, top: key.height + Math.floor(tiles.size / columns) * tileHeight, width: tileWidth, height: tileHeight };
      tiles.set(tile, at);
      parts.push(`<g transform="translate(${at.left},${at.top})">${svg}</g>`);
    }
    stamps.push({ from: whole, left: left - PAD, top: top - PAD, tile });
  }
  stamps.push({ from: { left: 0, top: 0, width: key.width, height: key.height }, left: key.left, top: key.top });
  const width = Math.max(key.width, Math.min(tiles.size, columns) * tileWidth, 1);
  const height = Math.max(key.height + Math.ceil(tiles.size / columns) * tileHeight, 1);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`,
    HEAT_GRADIENT,
    `<g transform="translate(${-key.left},${-key.top})">${legend.svg}</g>`,
    ...parts,
    '</svg>',
  ].join('');
  return { svg, stamps, tiles };
}

/** Tiles go side by side up to about this many pixels (or the legend's width), then on the next row. */
const SHEET_WIDTH = 1024;

/** The legend's box in whole pixels, within the screenshot. */
function legendArea(box: Rect, bounds: { width: number; height: number }): Rect {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const right = Math.min(bounds.width, Math.ceil(box.left + box.width));
  const bottom = Math.min(bounds.height, Math.ceil(box.top + box.height));
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

/**
 * Each marked cell's marks (in the order they were drawn over one another: heat, then the certain cells, flags,
 * conflict and guess), drawn for a tile whose corner is at (left, top) less PAD on the screenshot: whole pixels,
 * so the cell keeps its offset within a pixel and the tile is the cell's own drawing moved.
 */
function cellDrawings(grid: Grid, marks: Marks): { left: number; top: number; svg: string }[] {
  const odds = new Map((marks.heat ?? []).map(({ cell, p }) => [String(cell), p]));
  const drawers: [Coord[], (tile: Grid, cell: Coord, at: Coord) => string][] = [
    [(marks.heat ?? []).map(({ cell }) => cell), (tile, cell, at) => heatMark(tile, cell, odds.get(String(at)) as number)],
    [marks.mines, mineMark],
    [marks.safe, safeMark],
    [marks.unreadable, unreadableMark],
    [marks.provenFlags, provenFlagMark],
    [marks.unprovenFlags ?? [], unprovenFlagMark],
    [marks.wrongFlags, wrongFlagMark],
    [marks.conflict ?? [], conflictMark],
    [marks.bestGuess ? [marks.bestGuess.cell] : [], guessMark],
  ];
  const cells = new Map<string, { left: number; top: number; tile: Grid; svg: string }>();
  for (const [coords, draw] of drawers) {
    for (const [row, col] of coords) {
      const name = `${row},${col}`;
      let cell = cells.get(name);
      if (!cell) {
        const x = cellLeft(grid, col);
        const y = cellTop(grid, row);
        const left = Math.floor(x);
        const top = Math.floor(y);
        cell = { left, top, tile: { rows: 1, cols: 1, left: x - left + PAD, top: y - top + PAD, pitchX: grid.pitchX, pitchY: grid.pitchY }, svg: '' };
        cells.set(name, cell);
      }
      cell.svg += draw(cell.tile, [0, 0], [row, col]);
    }
  }
  return [...cells.values()];
}
