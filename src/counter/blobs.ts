// Inked areas of a text box grouped into words and glyphs (glyphs.ts reads them).
import type { Rect } from '../common/types';

// Math's functions as module constants: under jest every lookup of the global Math is slow.
const { max, min } = Math;

export interface Group extends Rect {
  members: number[];
}

/** Bounding boxes of 8-connected inked areas, and each pixel's area (-1: none). */
export function blobs(ink: Float32Array, w: number, h: number): { rects: Rect[]; labels: Int32Array } {
  const labels = new Int32Array(w * h).fill(-1);
  const rects: Rect[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || labels[start] >= 0) continue;
    const id = rects.length;
    let x0 = w,
      y0 = h,
      x1 = -1,
      y1 = -1;
    labels[start] = id;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop() as number;
      const x = p % w;
      const y = (p - x) / w;
      x0 = min(x0, x);
      x1 = max(x1, x);
      y0 = min(y0, y);
      y1 = max(y1, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx,
            ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (ink[q] && labels[q] < 0) {
            labels[q] = id;
            stack.push(q);
          }
        }
      }
    }
    rects.push({ left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 });
  }
  return { rects, labels };
}

/**
 * Blobs merged into words until none can be: side by side (overlapping in height by half, a gap under the
 * smaller height) or stacked (overlapping in width by half, a gap under half the smaller height: the
 * upper and lower bars of an LCD digit).
 */
export function wordBoxes(parts: Group[]): Group[] {
  return mergeWhile(parts, belongTogether).sort((a, b) => a.top - b.top || a.left - b.left);
}

/**
 * A word's blobs merged into glyphs: those sharing most of the narrower one's columns, and those one above
 * the other that touch columns (an LCD 4's upper-left bar and its middle bar).
 */
export function glyphGroups(parts: Group[]): Group[] {
  const oneGlyph = (a: Rect, b: Rect) => {
    const overlapX = min(a.left + a.width, b.left + b.width) - max(a.left, b.left);
    const overlapY = min(a.top + a.height, b.top + b.height) - max(a.top, b.top);
    const stacked =
      overlapY <= max(1, 0.35 * min(a.height, b.height)) && -overlapX <= max(1, 0.08 * max(a.height, b.height));
    return overlapX >= 0.6 * min(a.width, b.width) || stacked;
  };
  return mergeWhile(parts, oneGlyph).sort((a, b) => a.left - b.left);
}

/** A glyph under this share of its word's tallest is not a character by itself (a colon, a speck, a bar). */
export const SHORT_GLYPH = 0.55;

/**
 * Short pieces joined to a glyph they touch (within a pixel): resampled, an LCD 4 comes apart into its
 * upper-left bar, its middle bar and its right-hand bars, and the right-hand bars alone read as a 1.
 */
export function fragmentsJoined(glyphs: Group[]): Group[] {
  const tallest = max(0, ...glyphs.map((g) => g.height));
  const short = (g: Rect) => g.height < SHORT_GLYPH * tallest;
  const touching = (a: Rect, b: Rect) =>
    gapBetween(a.left, a.width, b.left, b.width) <= 1 && gapBetween(a.top, a.height, b.top, b.height) <= 1;
  return mergeWhile(glyphs, (a, b) => (short(a) || short(b)) && touching(a, b)).sort((a, b) => a.left - b.left);
}

/** Empty pixels between two runs [a, a + aw) and [b, b + bw) (negative: they overlap). */
const gapBetween = (a: number, aw: number, b: number, bw: number): number => max(a, b) - min(a + aw, b + bw);

function mergeWhile(parts: Group[], together: (a: Rect, b: Rect) => boolean): Group[] {
  const groups = parts.map((g) => ({ ...g, members: [...g.members] }));
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < groups.length && !merged; i++) {
      for (let j = i + 1; j < groups.length && !merged; j++) {
        if (!together(groups[i], groups[j])) continue;
        groups[i] = { ...union(groups[i], groups[j]), members: [...groups[i].members, ...groups[j].members] };
        groups.splice(j, 1);
        merged = true;
      }
    }
  }
  return groups;
}

function belongTogether(a: Rect, b: Rect): boolean {
  const overlapY = min(a.top + a.height, b.top + b.height) - max(a.top, b.top);
  const overlapX = min(a.left + a.width, b.left + b.width) - max(a.left, b.left);
  const sideBySide = overlapY >= 0.5 * min(a.height, b.height) && -overlapX < 0.9 * min(a.height, b.height);
  const stacked = overlapX >= 0.5 * min(a.width, b.width) && -overlapY < 0.5 * min(a.height, b.height) + 1;
  return sideBySide || stacked;
}

function union(a: Rect, b: Rect): Rect {
  const left = min(a.left, b.left);
  const top = min(a.top, b.top);
  return {
    left,
    top,
    width: max(a.left + a.width, b.left + b.width) - left,
    height: max(a.top + a.height, b.top + b.height) - top,
  };
}
