import type { Grid, RgbaImage } from '../common/types';
import { lineSteps } from '../image/patch';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { max, round } = Math;

/**
 * How strongly the image shows grid line k of the grid (axis 'x': the vertical line at left + k*pitchX,
 * measured over the grid's rows): the mean, over the line's length, of the largest colour step across it
 * (|ΔR| + |ΔG| + |ΔB| between neighbouring pixels) within a narrow band, so a line a pixel off the fitted position
 * still counts. The steps are summed in WebAssembly (image/patch.ts's lineSteps).
 */
export function gridLineStrength(image: RgbaImage, grid: Grid, axis: 'x' | 'y', k: number): number {
  const vertical = axis === 'x';
  const pitch = vertical ? grid.pitchX : grid.pitchY;
  const at = round((vertical ? grid.left : grid.top) + k * pitch);
  const band = max(1, round(pitch * 0.08));
  const from = round(vertical ? grid.top : grid.left);
  const to = round(from + (vertical ? grid.rows * grid.pitchY : grid.cols * grid.pitchX));
  return to > from ? lineSteps(image, vertical, at, band, from, to) / (to - from) : 0;
}
