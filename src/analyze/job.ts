// What a batch's main thread and its workers pass each other: the options, the files, the results.
import type { Analysis } from '../common/types';
import type { AnalyzeOptions } from './analyze';

export interface BatchOptions extends AnalyzeOptions {
  /** A file (one input) or a folder (several); default: `<name>.annotated.png` beside each input. */
  output?: string;
  /** Draw the mine probability of every uncertain hidden cell (a heat map). */
  probabilities?: boolean;
  /** Also write <name>.debug.png: region, grid, and per cell its reading and match margin. */
  debug?: boolean;
  /** Files analysed at once, each in a worker thread (default: the CPU cores from 8 files on; 1 = in this thread). */
  jobs?: number;
}

export interface FileResult {
  /**
   * Without the cells' readings (null), which nothing reported uses: a batch's results travel from its workers
   * and stay in memory to the end, and an expert board's readings are three quarters of its result (~60 KB).
   */
  analysis: Analysis;
  /** The annotated PNG written, if any. */
  output: string | null;
  /** The --debug PNG written, if any. */
  debug: string | null;
  /** Time spent on the file, milliseconds. */
  ms: number;
}

/** One file to analyse, and its name under an output folder (its path below the folder it was found in). */
export interface Input {
  file: string;
  name: string;
  /** Found in a folder given, not named itself: `-o` is then a folder, even for a folder's only image. */
  inFolder?: boolean;
  /** Standard input's bytes (`file` is then `-`), or why it was not read. */
  bytes?: Uint8Array | { refused: string };
}

/** What every file of a batch shares: all inputs (never overwritten), the options, whether outputs go to a folder. */
export interface Job {
  all: string[];
  options: BatchOptions;
  toFolder: boolean;
}
