// Plain data passed between the pipeline stages; every stage imports it.

/** Decoded pixels, 4 bytes per pixel (RGBA), row-major. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
  /** Decoded from a file without an alpha channel (every alpha here is then 255). */
  opaque?: boolean;
  /** Frames in the file, when more than one (an animated GIF or WebP, a multi-page TIFF): the first was decoded. */
  frames?: number;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Cell (row, col) covers x in [left + col*pitchX, left + (col+1)*pitchX), likewise y. Pitches may be
 * fractional. A game that lays out whole-pixel cells of two widths (GTK: 30, 30, …, 29, 29) gets each
 * column's and row's own left / top edge in `lefts` / `tops`; the cell size stays pitchX × pitchY.
 */
export interface Grid {
  rows: number;
  cols: number;
  left: number;
  top: number;
  pitchX: number;
  pitchY: number;
  lefts?: number[];
  tops?: number[];
}

/**
 * One character of the board text format (README.md):
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
  /**
   * False when the board was too large to decide every cell in bounded time: every cell listed is
   * proven, but others may be certain too (and an inconsistency may go unnoticed). Absent = complete.
   */
  complete?: boolean;
}

/** The chance that an unknown is a mine; null when nothing is known of it (off the frontier, no total). */
export interface CellProbability {
  cell: string;
  p: number | null;
}

/** Why a cell is certain: a few constraints that already force it, named by their sources. */
export interface Reason {
  cell: string;
  mine: boolean;
  /** Witness cell names ('r3c7'), and 'total' when the mine count is needed. */
  sources: string[];
}

/** A small set of constraints that cannot all hold (minimal: drop any one and the rest can). */
export interface Conflict {
  /** Witness cell names, and 'total' when the mine count is one of them. */
  sources: string[];
}

/** A single re-reading that would make an inconsistent board consistent: a suggestion, never applied. */
export interface Rereading {
  cell: Coord;
  read: Cell;
  consistentIf: Cell;
  /** True when consistentIf is the classifier's runner-up template (the likeliest misreading). */
  runnerUp: boolean;
}

export interface FlagReport {
  proven: Coord[];
  unproven: Coord[];
  wrong: Coord[];
  /** With trusted flags (--trust-flags) every flag is a mine by fiat: listed here, not checked. */
  trusted: Coord[];
}

/** A side of a board. */
export type Side = 'top' | 'bottom' | 'left' | 'right';

/** What a game draws beyond one side of its board, pixel by pixel outward from the grid's edge, at a pitch. */
export interface FramePrint {
  pitch: number;
  /** r, g, b of each pixel-wide strip, from a few pixels inside the edge (locate/frame.ts) outward. */
  colours: number[];
  /** The strips stop at the game window's edge: what lies past it is not the game's. */
  windowEdge?: boolean;
  /** The size of the board it was taken beside (a game's levels are each a window layout). */
  rows?: number;
  cols?: number;
}

/** A skin in memory: templates, each with its label, all of one nominal cell size. */
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
  /** The frame beyond each side, as captures showed it (one print per layout); a side without is not checked. */
  frames?: Partial<Record<Side, FramePrint[]>>;
}

/** Where a game draws its mine counter, and the glyphs of its characters. */
export interface CounterModel {
  /** 'remaining': mines minus flags placed ("0017"); 'flags-of-total': flags placed and the total ("6/10"). */
  kind: 'remaining' | 'flags-of-total';
  places: CounterPlace[];
  glyphs: { char: string; shape: GlyphShape }[];
  /** The counter's fonts at full size, for text too small to cut into glyphs (counter/typeset.ts); may be none. */
  fonts: CounterFont[];
  /** It shows 0, not less, once more flags are placed than there are mines (ace-minesweeper): a 0 gives no total. */
  stopsAtZero?: true;
}

/**
 * A counter's font as a game draws it, learned at 100 % (scripts/counter-fonts.js): digits are set
 * `pitch` pixels apart, a slash takes `slash` pixels; each glyph's image sits `left` pixels from the start
 * of its place and `top` pixels below the digits' top.
 */
export interface CounterFont {
  /** The digits' height, pixels. */
  height: number;
  pitch: number;
  slash: number;
  /** How far (largest channel difference) the ink of a fully covered pixel is from the background. */
  strength: number;
  /** The cell sizes (pixels) of the boards it was learned beside: a place tied to a cell size uses only these. */
  cells: number[];
  glyphs: Map<string, FontGlyph>;
}

export interface FontGlyph {
  left: number;
  top: number;
  width: number;
  height: number;
  /** Share of each pixel the glyph covers (0-1), row-major. */
  coverage: Float32Array;
}

/**
 * A box [dx, dy, width, height] from a board corner, in pixels of a game drawing cells `pitch` pixels wide
 * (pitch 1: in cells). `along`: the box's width is the board's width plus box[2] (a status bar).
 */
export interface CounterPlace {
  pitch: number;
  corner: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
  box: [number, number, number, number];
  along?: boolean;
}

/** A glyph reduced to ink coverage on a fixed grid, and its width / height. */
export interface GlyphShape {
  aspect: number;
  /** Height in pixels: glyphs are only compared with glyphs of about their own size. */
  height: number;
  cells: Float32Array;
}

export interface CounterReading {
  read: boolean;
  /** What was read, also when it did not parse as a counter; null when nothing was. */
  text: string | null;
  /** Mines not yet flagged, and the total when the counter shows it. */
  remaining: number | null;
  total: number | null;
  box: Rect | null;
}

/** The counter as read, and whether its total was used for the board (and if not, why). */
export interface CounterReport extends CounterReading {
  used: boolean;
  note: string | null;
}

export interface Template {
  label: Cell;
  image: RgbaImage;
}

export interface SkinFit {
  /** Mean distance of every cell to its nearest template (RMS, 0-255), and the skin's per-cell limit. */
  meanDistance: number;
  maxDistance: number;
  /** 1 − meanDistance / maxDistance, at least 0: 1 is a perfect match. */
  fit: number;
}

/** Everything mine-assist knows about one input. */
export interface Analysis {
  file: string;
  status: 'ok' | 'inconsistent' | 'error';
  error?: string;
  skin: string | null;
  /** How closely the cells match the skin's templates; null for a text board. */
  skinFit: SkinFit | null;
  region: Rect | null;
  grid: Grid | null;
  board: Board | null;
  readings: Reading[] | null;
  deductions: Deductions | null;
  unreadable: Coord[];
  flags: FlagReport;
  /** Mine probability of every unknown; null when inconsistent or too costly (then a note says so). */
  probabilities: CellProbability[] | null;
  /** The cell to try when no safe cell is certain (README: best guess); a cell name. */
  bestGuess: string | null;
  /** One per certain cell. */
  reasons: Reason[];
  /** For an inconsistent board: a minimal set of counts that cannot all hold. */
  conflict: Conflict | null;
  /** For an inconsistent board read from a screenshot: re-readings that would make it consistent. */
  suggestions: Rereading[];
  /** Limits reached and assumptions made, in words. */
  notes: string[];
  /** Frames in the image file, when more than one: only the first was read. */
  frames?: number;
  /** The game's mine counter; null for a text board or a skin that does not know the counter. */
  counter?: CounterReport | null;
}
