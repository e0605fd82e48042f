// Frames of one game, one after another (the web page's "Watch a window"): what was learned of the board in the
// last frame (where it is, its grid, its skin, every cell's reading, the pixels) is kept, and a new frame is read
// only where its cells changed. A frame is read from scratch when there is nothing to go on (no board before), when
// the board's frame moved (the window moved, was resized or covered at a side), when most cells changed (a new game,
// another board), or when the cells read again do not read as the skin's (read/partial.ts refuses them).
import type { Analysis, Coord, RgbaImage } from '../common/types';
import { changedCells, frameChanged } from '../image/changes';
import { rereadCells } from '../read/partial';
import type { SkinReading } from '../read/read';
import { type AnalyzeOptions, analyzePixels, analyzeRead, failed } from './analyze';

/** What a watch keeps between frames. */
export interface WatchMemory {
  /** The frame last read, cell by cell or whole. */
  image: RgbaImage;
  /** The board read in it, or null when none was. */
  read: SkinReading | null;
  analysis: Analysis;
  /** The options it was read with (as JSON): other options read the next frame from scratch. */
  options: string;
}

export interface WatchStep {
  memory: WatchMemory;
  /** `same`: no cell changed (the last analysis stands); `cells`: only changed cells read; `full`: from scratch. */
  how: 'same' | 'cells' | 'full';
  /** Cells whose pixels changed; null when the frame was read from scratch. */
  changed: Coord[] | null;
}

/** More than this share of the cells changed: a new game or another board, read from scratch. */
const MOST_CELLS = 0.5;

/**
 * Cells this large (pixels) are read on the screenshot shrunk (analyze.ts, LARGEST_USEFUL): such a board is read
 * from scratch each time.
 */
const SHRUNK_PITCH = 80;

/** The next frame of a watch: the last memory (null for the first frame) and the new frame's pixels. */
export async function watchFrame(
  memory: WatchMemory | null,
  image: RgbaImage,
  options: AnalyzeOptions = {},
  file = 'frame',
): Promise<WatchStep> {
  const key = JSON.stringify(options);
  const read = memory?.read;
  if (!memory || !read || memory.options !== key || !sameSize(memory.image, image)) return full(image, options, file);
  if (Math.min(read.grid.pitchX, read.grid.pitchY) >= SHRUNK_PITCH) return full(image, options, file);
  if (frameChanged(memory.image, image, read.grid, Math.max(2, Math.min(read.grid.pitchX, read.grid.pitchY) / 2)))
    return full(image, options, file);
  const changed = changedCells(memory.image, image, read.grid);
  // the memory keeps the frame last read: small changes cannot pile up unseen
  if (!changed.length) return { memory, how: 'same', changed };
  if (changed.length > MOST_CELLS * read.grid.rows * read.grid.cols) return full(image, options, file);
  const again = rereadCells(image, read, changed);
  if (!again) return full(image, options, file);
  const analysis = await analyzeRead(image, again, file, options).catch(() => null);
  // an inconsistent board read in part may be a board the grid no longer fits: the whole frame decides
  if (!analysis || analysis.status !== 'ok') return full(image, options, file);
  return { memory: { image, read: again, analysis, options: key }, how: 'cells', changed };
}

async function full(image: RgbaImage, options: AnalyzeOptions, file: string): Promise<WatchStep> {
  const found: Partial<Analysis> = {};
  const key = JSON.stringify(options);
  try {
    const { read, analysis } = await analyzePixels(image, file, options, found);
    return { memory: { image, read, analysis, options: key }, how: 'full', changed: null };
  } catch (err) {
    return {
      memory: { image, read: null, analysis: { ...failed(file, err), ...found }, options: key },
      how: 'full',
      changed: null,
    };
  }
}

const sameSize = (a: RgbaImage, b: RgbaImage) => a.width === b.width && a.height === b.height;
