// A board cut off by the edge of the screenshot: its counts along that edge see cells the image does not
// show, so they cannot be used, nor a mine total for the whole game.
import type { Grid, RgbaImage } from './types';
import { gridEdges } from './pixels';

export type Side = 'top' | 'bottom' | 'left' | 'right';

/**
 * The sides on which the board may go on past the image: less than a cell between the grid and the
 * image's edge, and that strip is not plain. A frame or window border is plain along its length, or a fine
 * pattern that repeats every few pixels (ace's dotted backdrop); a strip of cut cells is crossed by their
 * borders every pitch. A strip too thin to tell counts as cut.
 */
export function cutSides(image: RgbaImage, grid: Grid): Side[] {
  const { left, top, right, bottom } = gridEdges(grid);
  const strips: [Side, number, number, number, number, boolean][] = [
    ['left', 0, Math.floor(left) - 1, top, bottom, true],
    ['right', Math.ceil(right) + 1, image.width, top, bottom, true],
    ['top', 0, Math.floor(top) - 1, left, right, false],
    ['bottom', Math.ceil(bottom) + 1, image.height, left, right, false],
  ];
  return strips
    .filter(([, from, to, , , vertical]) => to - from < (vertical ? grid.pitchX : grid.pitchY))
    .filter(([, from, to, alongFrom, alongTo, vertical]) => to - from < MIN_STRIP || !plain(image, from, to, alongFrom, alongTo, vertical))
    .map(([side]) => side);
}

/** A strip thinner than this (pixels) cannot be told from the edge of a cell. */
const MIN_STRIP = 2;

/** Mean grey step along a strip, at some lag of at most MAX_PERIOD pixels, up to which it is plain. */
const PLAIN = 12;
const MAX_PERIOD = 6;

function plain(image: RgbaImage, from: number, to: number, alongFrom: number, alongTo: number, vertical: boolean): boolean {
  for (let lag = 1; lag <= MAX_PERIOD; lag++) if (variation(image, from, to, alongFrom, alongTo, vertical, lag) <= PLAIN) return true;
  return false;
}

/** Mean absolute grey step between pixels `lag` apart along the strip: columns [from, to) over rows alongFrom–alongTo, or the transpose. */
function variation(image: RgbaImage, from: number, to: number, alongFrom: number, alongTo: number, vertical: boolean, lag: number): number {
  const gray = (x: number, y: number) => {
    const p = (y * image.width + x) * 4;
    return 0.3 * image.data[p] + 0.59 * image.data[p + 1] + 0.11 * image.data[p + 2];
  };
  const limit = vertical ? image.height : image.width;
  const [start, end] = [Math.max(0, Math.round(alongFrom)), Math.min(limit - 1, Math.round(alongTo))];
  let [sum, n] = [0, 0];
  for (let across = Math.max(0, from); across < to; across++) {
    for (let along = start; along < end - lag; along++) {
      sum += vertical ? Math.abs(gray(across, along + lag) - gray(across, along)) : Math.abs(gray(along + lag, across) - gray(along, across));
      n++;
    }
  }
  return n ? sum / n : 0;
}
