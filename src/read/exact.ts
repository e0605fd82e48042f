// A cell drawn pixel for pixel as one of the templates (a crisp screenshot at the skin's own scale): its
// reading is known without measuring it against every template. The kernel finds the template it equals
// (speed/wasm/patch.ts's `sameTemplate`); what that reads as is decided here.
import type { Cell, Reading } from '../common/types';
import { templateDistances } from '../image/patch';
import type { Prepared, PreparedSkin } from './templates';

/** The template's nearest other label and its distance, or null when that would not decide (a tie, a twin). */
interface Rival {
  label: Cell;
  distance: number;
}

const rivalsOf = new WeakMap<PreparedSkin, (Rival | null | undefined)[]>();

/**
 * The reading `classify` would give a patch equal to template i of a single-size skin: that label at distance 0,
 * the runner-up the template's nearest other label at its distance (classify measures those two exactly). Null
 * when the template's two nearest other labels tie: the cell is then to be measured.
 */
export function exactReading(prepared: PreparedSkin, i: number, row: number, col: number): Reading | null {
  const { templates } = prepared.groups[0];
  let rivals = rivalsOf.get(prepared);
  if (!rivals) rivalsOf.set(prepared, (rivals = []));
  if (rivals[i] === undefined) rivals[i] = rivalOf(templates, i, templateDistances(prepared, 0, i));
  const rival = rivals[i];
  if (!rival) return null;
  const best = templates[i].label;
  return {
    row,
    col,
    cell: best,
    best,
    distance: 0,
    runnerUp: rival.label,
    runnerUpDistance: rival.distance,
    unreadable: false,
  };
}

/** Template i's nearest other label, from its distance to each template (measured in the kernel). */
function rivalOf(templates: Prepared[], i: number, distances: Float64Array): Rival | null {
  const own = templates[i];
  const nearest = new Map<Cell, number>();
  for (let j = 0; j < templates.length; j++) {
    const { label } = templates[j];
    if (label === own.label) continue;
    if (distances[j] < (nearest.get(label) ?? Infinity)) nearest.set(label, distances[j]);
  }
  const ranked = [...nearest].sort((a, b) => a[1] - b[1]);
  if (!ranked.length) return { label: '.', distance: Infinity };
  const [[label, distance], next] = ranked;
  return distance > 0 && (!next || next[1] > distance) ? { label, distance } : null;
}
