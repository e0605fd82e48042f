// Square outlines without OpenCV: the flat regions of two binary images (edges, a local threshold), each
// region's bounding box kept when it is square and the region fills most of it. A cell's inside is such a
// region whether its border is a grid line, a bevel or a gap. (OpenCV's third image, edges thickened by a pixel,
// is left out: it finds few more cells for a third more time.)
import type { Rect, RgbaImage } from '../common/types';
import { Kernel } from '../speed/kernel';

const { min } = Math;

export interface SquareLimits {
  minSide: number;
  maxSide: number;
}

/**
 * Every square, mostly filled region of the binary images (as OpenCV's contours would give them). The pixel
 * work runs in WebAssembly (speed/wasm/outlines.ts): grey, the edge image, the local threshold, and each image's
 * flat regions: runs of one value along each row, runs that overlap in neighbouring rows joined (union–find),
 * each region's bounding box and size.
 */
export function squareRegions(image: RgbaImage, limits: SquareLimits): Rect[] {
  const kernel = outlineKernel.get();
  try {
    toGrey(kernel, image);
    kernel.edges();
    const edged = squaresOf(kernel, limits);
    kernel.threshold();
    return [...edged, ...squaresOf(kernel, limits)];
  } catch (err) {
    outlineKernel.drop();
    // the kernel's one trap of its own: memory it could not grow
    if (err instanceof WebAssembly.RuntimeError && /unreachable/.test(err.message))
      throw new Error(`no memory left to look for a board in ${image.width}×${image.height} pixels`);
    throw err;
  } finally {
    if (outlineKernel.oversized()) outlineKernel.drop();
  }
}

/** The image into the kernel's grey image, a band of rows at a time (a whole copy would double its memory). */
function toGrey(kernel: OutlineKernel, { width, height, data }: RgbaImage): void {
  const line = 4 * width;
  const rows = kernel.BAND_ROWS.value;
  const at = kernel.band(width, height);
  const band = new Uint8Array(kernel.memory.buffer, at, rows * line);
  for (let top = 0; top < height; top += rows) {
    const count = min(rows, height - top);
    band.set(data.subarray(top * line, (top + count) * line));
    kernel.greyRows(top, count);
  }
}

function squaresOf(kernel: OutlineKernel, { minSide, maxSide }: SquareLimits): Rect[] {
  const count = kernel.squares(minSide, maxSide);
  const values = new Int32Array(kernel.memory.buffer, kernel.squaresAt(), 4 * count);
  const squares: Rect[] = [];
  for (let i = 0; i < 4 * count; i += 4)
    squares.push({ left: values[i], top: values[i + 1], width: values[i + 2], height: values[i + 3] });
  return squares;
}

/**
 * Each outline's gap to the nearest outline after it along the axis, on about its line, where under 1.9 sides
 * (locate.ts's `nearestGap` uses it), found in the kernel's `gapsToNext`.
 */
export function gapsAlong(boxes: Rect[], axis: 'x' | 'y', side: number): Float64Array {
  return withOutlines(boxes, (kernel) => {
    const count = kernel.gapsToNext(axis === 'y', side);
    return new Float64Array(kernel.memory.buffer, kernel.resultsAt(), count).slice();
  });
}

/**
 * The union–find forest of the outlines, each joined to those on its lattice up to `link` pitches away
 * (locate.ts's `lattices` uses it), made in the kernel's `linked`.
 */
export function latticeForest(boxes: Rect[], pitchX: number, pitchY: number, link: number): number[] {
  return withOutlines(boxes, (kernel) => {
    kernel.linked(pitchX, pitchY, link);
    const roots = new Int32Array(kernel.memory.buffer, kernel.resultsAt(), boxes.length);
    const forest = new Array<number>(boxes.length);
    for (let i = 0; i < boxes.length; i++) forest[i] = roots[i];
    return forest;
  });
}

/**
 * The outlines' centres across x (or y) fitted to a lattice of cells (grid.ts's `fitGrid`; the kernel's
 * `fitAxis`): the left (or top) of its first cell, its pitch and its count of cells.
 */
export function latticeFit(
  boxes: Rect[],
  axis: 'x' | 'y',
  pitchGuess: number,
): { origin: number; pitch: number; count: number } {
  return withOutlines(boxes, (kernel) => {
    kernel.fitAxis(axis === 'y', pitchGuess);
    const [origin, pitch, count] = new Float64Array(kernel.memory.buffer, kernel.resultsAt(), 3);
    return { origin, pitch, count };
  });
}

/**
 * The outlines written into the kernel, for `use`: the loops over them run there, as JS they are slow until V8 has
 * compiled them.
 */
function withOutlines<T>(boxes: Rect[], use: (kernel: OutlineKernel) => T): T {
  const kernel = outlineKernel.get();
  try {
    const at = kernel.outlinesInput(boxes.length);
    const values = new Int32Array(kernel.memory.buffer, at, 4 * boxes.length);
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i];
      values[4 * i] = b.left;
      values[4 * i + 1] = b.top;
      values[4 * i + 2] = b.width;
      values[4 * i + 3] = b.height;
    }
    return use(kernel);
  } catch (err) {
    outlineKernel.drop();
    throw err;
  } finally {
    if (outlineKernel.oversized()) outlineKernel.drop();
  }
}

/** The exports of speed/wasm/outlines.ts. */
interface OutlineKernel {
  memory: WebAssembly.Memory;
  BAND_ROWS: { value: number };
  band(width: number, height: number): number;
  greyRows(top: number, count: number): void;
  edges(): void;
  threshold(): void;
  squares(minSide: number, maxSide: number): number;
  squaresAt(): number;
  outlinesInput(count: number): number;
  gapsToNext(alongY: boolean, side: number): number;
  linked(pitchX: number, pitchY: number, link: number): void;
  fitAxis(alongY: boolean, pitchGuess: number): void;
  resultsAt(): number;
}

/**
 * A kernel's memory grows to the largest image it has seen and is never given back: past this (a 1280×1024
 * screenshot takes ~5 MB, a 4K one ~30 MB), the instance is dropped after its image and made anew for the next.
 */
const KEEP_MEMORY = 64 << 20;

const outlineKernel = new Kernel<OutlineKernel>('outlines.wasm', KEEP_MEMORY);
