import type {
  Board,
  CounterModel,
  CounterPlace,
  CounterReading,
  CounterReport,
  GlyphShape,
  Grid,
  Rect,
  RgbaImage,
} from '../common/types';
import { cellLeft, cellTop } from '../image/pixels';
import { type Glyph, type Ink, joinThinBars, shapeDistance, shapeOf, wordsIn } from './glyphs';
import { readSmallText } from './typeset';
import { debuglog } from 'node:util';

const trace = debuglog('mine-assist');

/** A glyph this far from every character of the skin (shapeDistance) is not one of them… */
const MAX_GLYPH_DISTANCE = 0.2;
/** …and the best character must beat the next-best by this factor. */
const MAX_GLYPH_RATIO = 0.7;
/** A glyph this far from every character is clearly none of them: a letter or an icon, not a blurred digit. */
const FOREIGN_DISTANCE = 0.3;
/**
 * Glyphs are compared with examples of about their own height (within 25 %): a blurred 5 px example of a 0 is
 * not a 0 at 10 px.
 */
const SIZE_TOLERANCE = Math.log(1.25);

/**
 * Reads the game's mine counter beside the board. Each place the skin knows (a box at a fixed offset from
 * a board corner, for one cell size the game draws) is searched at the scale that cell size gives, word by
 * word; the first word that reads as a counter wins. Never a guess: a glyph that is not clearly one of the
 * skin's characters breaks the text there.
 */
export function readCounter(image: RgbaImage, grid: Grid, model: CounterModel): CounterReading {
  let seen: string | null = null;
  const known = new Set(model.glyphs.map((g) => g.char));
  const needed = model.kind === 'remaining' ? '0123456789' : '0123456789/';
  // a character the skin lacks would be read as its nearest look-alike
  if (![...needed].every((c) => known.has(c)))
    return { read: false, text: null, remaining: null, total: null, box: null };
  for (const ink of INK_PASSES) {
    for (const place of model.places) {
      for (const shift of PLACE_SHIFTS) {
        const found = readPlace(image, shifted(placeBox(grid, place), shift), model, ink);
        if (found.read) return found;
        seen ??= found.text;
      }
    }
  }
  for (const place of model.places) {
    const found = readSet(image, grid, place, model);
    if (found) return found;
  }
  return { read: false, text: seen, remaining: null, total: null, box: null };
}

/**
 * The counter read as a whole text set in the game's font (typeset.ts): text too small to cut into glyphs.
 * The place is taken a quarter of its height taller each way, and the text may reach as far again as its
 * height past its sides (a digit found there means the text goes on). A place drawn at one cell size is
 * read only in fonts learned beside that cell size, at the board's scale.
 */
function readSet(image: RgbaImage, grid: Grid, place: CounterPlace, model: CounterModel): CounterReading | null {
  const box = placeBox(grid, place);
  const taller = { ...box, top: box.top - 0.25 * box.height, height: 1.5 * box.height };
  const tied = place.pitch !== 1;
  const fonts = model.fonts.filter((font) => !tied || font.cells.includes(place.pitch));
  const scale = tied ? (grid.pitchX + grid.pitchY) / 2 / place.pitch : null;
  const set = readSmallText(image, taller, box.height, { ...model, fonts }, scale);
  const found = set && parseCounter(set.text, model.kind);
  return found ? { read: true, text: found.text, remaining: found.remaining, total: found.total, box: set.box } : null;
}

/**
 * The place is found from the grid, which may sit a pixel off at other scales: a box whose top or bottom
 * cut the glyphs is read again moved down and up by these shares of its height.
 */
const PLACE_SHIFTS = [0, 0.05, -0.05, 0.1, -0.1];

/**
 * How ink is told from the box's background (glyphs.ts `Ink`), in turn where nothing reads: first by the
 * 99th percentile of its pixels; then by the 95th (an icon beside small, faint text — GNOME Mines' flag beside
 * its "14/40" — or an LCD's brightest bars set the bar above the text's fainter parts); then by the
 * 99th of the pixels off rows and columns inked end to end (a band of desktop below KMines' status bar).
 */
const INK_PASSES: Ink[] = [{ rank: 0.99 }, { rank: 0.95 }, { rank: 0.99, besideLines: true }];

function shifted(box: Rect, share: number): Rect {
  return { ...box, top: box.top + share * box.height };
}

/** The first word in the box that reads as a counter; else the first text with a digit seen there. */
function readPlace(image: RgbaImage, box: Rect, model: CounterModel, ink: Ink): CounterReading {
  let seen: string | null = null;
  const words = wordsIn(image, box, ink);
  // a glyph cut by the box's edge (the place rounds differently at other scales): once more in a wider box
  const again = words.some((w) => w.some((g) => g.clipped)) ? wordsIn(image, grown(box, CLIPPED_MARGIN), ink) : [];
  for (const read of [words, again]) {
    for (const word of read) {
      for (const glyphs of [word, joinThinBars(word)]) {
        const text = readWord(glyphs, model.glyphs);
        const found = parseCounter(text, model.kind);
        if (found && !inkBeside(word, read))
          return { read: true, text: found.text, remaining: found.remaining, total: found.total, box: wordBox(word) };
        if (/\d/.test(text)) seen ??= text;
      }
    }
  }
  return { read: false, text: seen, remaining: null, total: null, box: null };
}

/**
 * Ink beside the word, as near as its glyphs are to each other and as tall as they are (specks one above another
 * taken together): a glyph come apart (a 5 at 75 %, its pixels repeated: three bars a pixel apart, each a word of
 * its own) may be a digit of it. A colon spans less of the height.
 */
function inkBeside(word: Glyph[], words: Glyph[][]): boolean {
  const box = wordBox(word);
  const sides = [
    [Infinity, -Infinity],
    [Infinity, -Infinity],
  ];
  for (const other of words) {
    if (other === word) continue;
    const o = wordBox(other);
    const rows = Math.min(o.top + o.height, box.top + box.height) - Math.max(o.top, box.top);
    const after = o.left - (box.left + box.width);
    const before = box.left - (o.left + o.width);
    if (rows <= 0 || Math.max(after, before) > BESIDE * box.height) continue;
    const side = sides[after >= before ? 1 : 0];
    side[0] = Math.min(side[0], o.top);
    side[1] = Math.max(side[1], o.top + o.height);
  }
  const span = Math.max(...sides.map(([top, bottom]) => bottom - top)) / box.height;
  if (span > 0) trace('counter word: ink beside spans %s of its height', span.toFixed(3));
  return span >= TALL;
}

/** How near (a share of the word's height) ink beside it must be, and how tall, to be taken for part of it. */
const BESIDE = 0.2;
const TALL = 0.8;

/** How much wider (a share of its height, each side) a box is read again when it cut a glyph. */
const CLIPPED_MARGIN = 0.12;

/** The box widened on both sides (not heightened: a digit frame above and below would join the text). */
function grown(box: Rect, share: number): Rect {
  const m = share * box.height;
  return { ...box, left: box.left - m, width: box.width + 2 * m };
}

/** The image box of a place: the board corner plus the place's offset, both scaled by the board's pitch. */
export function placeBox(grid: Grid, place: CounterPlace): Rect {
  const scale = (grid.pitchX + grid.pitchY) / 2 / place.pitch;
  const right = cellLeft(grid, grid.cols - 1) + grid.pitchX;
  const bottom = cellTop(grid, grid.rows - 1) + grid.pitchY;
  const x = place.corner.endsWith('right') ? right : grid.left;
  const y = place.corner.startsWith('bottom') ? bottom : grid.top;
  const [dx, dy, w, h] = place.box;
  return {
    left: x + dx * scale,
    top: y + dy * scale,
    width: w * scale + (place.along ? right - grid.left : 0),
    height: h * scale,
  };
}

/**
 * The characters of a word of glyphs: '?' for a glyph that may be one of them but not clearly which (or is
 * cut by the box), '_' for one clearly none of them (a letter, an icon).
 */
export function readWord(glyphs: Glyph[], chars: { char: string; shape: GlyphShape }[]): string {
  return glyphs.map((g) => (chars.length && !g.clipped ? charOf(shapeOf(g), chars) : '?')).join('');
}

function wordBox(word: Glyph[]): Rect {
  const left = Math.min(...word.map((g) => g.rect.left));
  const top = Math.min(...word.map((g) => g.rect.top));
  const right = Math.max(...word.map((g) => g.rect.left + g.rect.width));
  const bottom = Math.max(...word.map((g) => g.rect.top + g.rect.height));
  return { left, top, width: right - left, height: bottom - top };
}

const closest = (a: [string, number], b: [string, number]): number => a[1] - b[1];

function charOf(shape: GlyphShape, chars: { char: string; shape: GlyphShape }[]): string {
  const best = new Map<string, number>();
  for (const c of chars) {
    if (Math.abs(Math.log(shape.height / c.shape.height)) > SIZE_TOLERANCE) continue;
    best.set(c.char, Math.min(best.get(c.char) ?? Infinity, shapeDistance(shape, c.shape)));
  }
  const [first, second] = [...best].sort(closest);
  if (!first || first[1] > FOREIGN_DISTANCE) return '_';
  if (first[1] > MAX_GLYPH_DISTANCE || (second && first[1] > MAX_GLYPH_RATIO * second[1])) return '?';
  return first[0];
}

/**
 * 'remaining': the whole word is the mines not yet flagged ("0017"). 'flags-of-total': flags placed and the
 * total ("6/10"), also inside a longer word ("Mines: 6/10 Time" when the space is narrow) — but only beside
 * glyphs clearly not digits: an unclear one ("?1/99" for "31/99", "6/10?" for "6/100") may be a digit of it.
 */
export function parseCounter(
  text: string,
  kind: CounterModel['kind'],
): { text: string; remaining: number; total: number | null } | null {
  if (kind === 'remaining') return /^\d{1,4}$/.test(text) ? { text, remaining: Number(text), total: null } : null;
  const m = /(?:^|_)(\d{1,4})\/(\d{1,4})(?:$|_)/.exec(text);
  if (!m || Number(m[1]) > Number(m[2])) return null;
  return { text: `${m[1]}/${m[2]}`, remaining: Number(m[2]) - Number(m[1]), total: Number(m[2]) };
}

/**
 * The total the counter gives for this board (total = counter + flags placed), or why it is not used: a
 * total given by the user wins; a counter that shows flags must show the board's flags; the total must
 * leave room for the flags and fit the hidden cells. A counter of mines left gives the total only with
 * every flag read: an unreadable cell that may be a flag (`mayBeFlags`, read/classify.ts) may be one more placed
 * than counted; and not as 0 where the game stops the count there (any number of flags over the total also
 * shows 0).
 */
export function counterTotal(
  counter: CounterReading,
  board: Board,
  given: number | null,
  possibleFlags = 0,
  stopsAtZero = false,
): CounterReport {
  const report = (used: boolean, note: string | null, total = counter.total): CounterReport => ({
    ...counter,
    total,
    used,
    note,
  });
  if (!counter.read || counter.remaining === null)
    return report(
      false,
      counter.text ? `counter read as '${counter.text}', not a count` : 'counter not found or not readable',
    );
  let [flags, covered] = [0, 0];
  for (const row of board.cells) {
    for (const c of row) {
      if (c === 'F' || c === '!') flags++;
      if (c === '.' || c === 'F' || c === '?' || c === '!') covered++;
    }
  }
  const total = counter.total ?? counter.remaining + flags;
  if (given !== null) return report(false, `--mines ${given} given`, total);
  if (counter.total !== null && counter.total - counter.remaining !== flags) {
    return report(false, `counter shows ${counter.total - counter.remaining} flags, the board ${flags}`, total);
  }
  if (counter.total === null && counter.remaining === 0 && stopsAtZero) {
    return report(
      false,
      "0 mines left, but this game's counter stops at 0: more flags may be placed than there are mines",
      null,
    );
  }
  if (counter.total === null && possibleFlags > 0) {
    return report(
      false,
      `${counter.remaining} mines left, but ${possibleFlags} unreadable cell${possibleFlags > 1 ? 's' : ''} ` +
        'may hide flags placed',
      null,
    );
  }
  if (counter.remaining > covered - flags)
    return report(false, `counter shows ${counter.remaining} mines left, more than the hidden cells`, total);
  return report(true, null, total);
}
