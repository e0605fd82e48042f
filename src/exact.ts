// A cell drawn pixel for pixel as one of the templates (a crisp screenshot at the skin's own scale): its
// reading is known without measuring it against every template.
import type { Cell, Reading } from './types';
import type { Patch } from './patch';
import { rmsDistance } from './patch';
import type { Prepared, PreparedSkin } from './templates';

/** The template's nearest other label and its distance, or null when that would not decide (a tie, a twin). */
interface Rival {
  label: Cell;
  distance: number;
}

interface Index {
  byHash: Map<number, number[]>;
  rivals: (Rival | null | undefined)[];
}

const indices = new WeakMap<PreparedSkin, Index>();

/**
 * The reading `classify` would give a patch equal to one of a single-size skin's templates: that label at
 * distance 0, the runner-up the template's nearest other label at its distance (classify measures those two
 * exactly). Null when the patch equals no template, or when the template's two nearest other labels tie.
 */
export function exactReading(prepared: PreparedSkin, patch: Patch, row: number, col: number): Reading | null {
  if (prepared.groups.length !== 1) return null;
  const { templates } = prepared.groups[0];
  const index = indexOf(prepared, templates);
  const i = sameAs(templates, index.byHash.get(hashOf(patch.rgb)) ?? [], patch.rgb);
  if (i === undefined) return null;
  if (index.rivals[i] === undefined) index.rivals[i] = rivalOf(templates, i);
  const rival = index.rivals[i];
  if (!rival) return null;
  const best = templates[i].label;
  return { row, col, cell: best, best, distance: 0, runnerUp: rival.label, runnerUpDistance: rival.distance, unreadable: false };
}

function indexOf(prepared: PreparedSkin, templates: Prepared[]): Index {
  let index = indices.get(prepared);
  if (!index) {
    const byHash = new Map<number, number[]>();
    templates.forEach((t, i) => {
      const hash = hashOf(t.patch.rgb);
      byHash.set(hash, [...(byHash.get(hash) ?? []), i]);
    });
    index = { byHash, rivals: [] };
    indices.set(prepared, index);
  }
  return index;
}

function rivalOf(templates: Prepared[], i: number): Rival | null {
  const own = templates[i];
  const nearest = new Map<Cell, number>();
  for (const t of templates) {
    if (t.label === own.label) continue;
    const distance = rmsDistance(own.patch, t.patch);
    if (distance < (nearest.get(t.label) ?? Infinity)) nearest.set(t.label, distance);
  }
  const ranked = [...nearest].sort((a, b) => a[1] - b[1]);
  if (!ranked.length) return { label: '.', distance: Infinity };
  const [[label, distance], next] = ranked;
  return distance > 0 && (!next || next[1] > distance) ? { label, distance } : null;
}

/**
 * FNV-1a over the bits of every HASH_STRIDE-th float: enough to tell templates apart and a patch from them
 * (`equal` decides), for an eighth of the work on every cell of every board.
 */
function hashOf(values: Float32Array): number {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i += HASH_STRIDE) hash = Math.imul(hash ^ words[i], 0x01000193);
  return hash >>> 0;
}

const HASH_STRIDE = 8;

/** The first of the candidate templates whose patch equals `rgb`. */
function sameAs(templates: Prepared[], candidates: number[], rgb: Float32Array): number | undefined {
  for (const t of candidates) if (equal(templates[t].patch.rgb, rgb)) return t;
  return undefined;
}

/**
 * Compared as bytes (memcmp): patches are means of pixels, never NaN nor −0, so equal bits are equal floats and
 * equal floats equal bits.
 */
function equal(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && bytesOf(a).equals(bytesOf(b));
}

function bytesOf(values: Float32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}
