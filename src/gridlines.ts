import type { Grid, RgbaImage } from './types';

// Math's functions as module constants: under jest every lookup of the global Math costs ~100 ns.
const { max, round } = Math;

/**
 * How strongly the image shows grid line k of the grid (axis 'x': the vertical line at left + k*pitchX,
 * measured over the grid's rows): the mean, over the line's length, of the largest colour step across it
 * within a narrow band, so a line a pixel off the fitted position still counts.
 */
export function gridLineStrength(image: RgbaImage, grid: Grid, axis: 'x' | 'y', k: number): number {
  const vertical = axis === 'x';
  const pitch = vertical ? grid.pitchX : grid.pitchY;
  const at = round((vertical ? grid.left : grid.top) + k * pitch);
  const band = max(1, round(pitch * 0.08));
  const from = round(vertical ? grid.top : grid.left);
  const to = round(from + (vertical ? grid.rows * grid.pitchY : grid.cols * grid.pitchX));
  let total = 0;
  for (let t = from; t < to; t++) {
    let strongest = 0;
    for (let s = at - band; s <= at + band; s++) {
      const v = vertical ? step(image, s - 1, t, s, t) : step(image, t, s - 1, t, s);
      if (v > strongest) strongest = v;
    }
    total += strongest;
  }
  return to > from ? total / (to - from) : 0;
}

function step(image: RgbaImage, x0: number, y0: number, x1: number, y1: number): number {
  const { width, height, data } = image;
  if (x0 < 0 || y0 < 0 || x1 >= width || y1 >= height) return 0;
  const a = (y0 * width + x0) * 4;
  const b = (y1 * width + x1) * 4;
  // no destructuring: run per pixel, before V8 has compiled it, an array and its iterator cost more than the step
  const red = data[a] - data[b];
  const green = data[a + 1] - data[b + 1];
  const blue = data[a + 2] - data[b + 2];
  return (red < 0 ? -red : red) + (green < 0 ? -green : green) + (blue < 0 ? -blue : blue);
}


