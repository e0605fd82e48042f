// Plain data passed between the pipeline stages. No stage imports another; they all import this.

/** Decoded pixels, 4 bytes per pixel (RGBA), row-major. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Cell (row, col) covers x in [left + col*pitchX, left + (col+1)*pitchX), likewise y. Pitches may be fractional. */
export interface Grid {
  rows: number;
  cols: number;
  left: number;
  top: number;
  pitchX: number;
  pitchY: number;
}

/**
 * One character of the board text format (DESIGN.md):
 * '.' hidden, '0'-'8' open count, 'F' flag, '?' question mark, '*' mine shown, 'X' exploded mine, '!' wrong flag.
 */
export type Cell = string;

export interface Board {
  rows: number;
  cols: number;
  /** cells[row][col] */
  cells: Cell[][];
  /** Total mines in the game, flags included; null when unknown. */
  totalMines: number | null;
}

export type Coord = [row: number, col: number];

/** The classifier's output for one cell. */
export interface Reading {
  row: number;
  col: number;
  /** The label read; '.' when the cell is unreadable. */
  cell: Cell;
  /** Best template label and its distance (RMS per channel, 0-255 scale). */
  best: Cell;
  distance: number;
  /** Runner-up label (a different label from best) and its distance. */
  runnerUp: Cell;
  runnerUpDistance: number;
  unreadable: boolean;
}

/** "Exactly count of these cells are mines". Cells are SAT variable names `r<row>c<col>`. */
export interface Constraint {
  cells: string[];
  count: number;
  /** What the constraint came from, e.g. 'r3c7' for a witness or 'total'. */
  source: string;
}

/** What the solver is given: the unknown cells and the constraints over them. No geometry. */
export interface Problem {
  unknowns: string[];
  constraints: Constraint[];
}

export interface Deductions {
  status: 'ok' | 'inconsistent';
  /** Unknowns that are a mine in every consistent layout. */
  mines: string[];
  /** Unknowns that are safe in every consistent layout. */
  safe: string[];
}

export interface FlagReport {
  proven: Coord[];
  unproven: Coord[];
  wrong: Coord[];
}

/** A skin in memory: templates keyed by label, all of one nominal cell size. */
export interface Skin {
  name: string;
  /** Nominal cell size (pitch) in pixels of the templates. */
  cellSize: number;
  /** Fraction of the pitch trimmed from each side of a cell before comparing. */
  inset: number;
  /** A best match farther than this (RMS, 0-255) is unreadable. */
  maxDistance: number;
  /** A best match whose distance is more than this fraction of the runner-up's is unreadable. */
  maxRatio: number;
  templates: Template[];
}

export interface Template {
  label: Cell;
  image: RgbaImage;
}

/** Everything mine-assist knows about one input. */
export interface Analysis {
  file: string;
  status: 'ok' | 'inconsistent' | 'error';
  error?: string;
  skin: string | null;
  region: Rect | null;
  grid: Grid | null;
  board: Board | null;
  readings: Reading[] | null;
  deductions: Deductions | null;
  unreadable: Coord[];
  flags: FlagReport;
}
