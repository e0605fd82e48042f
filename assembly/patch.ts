// A cell's pixels resampled by area averaging (src/patch.ts's cellPatch) in WebAssembly (AssemblyScript), with
// the same f64 arithmetic in the same order: the same floats. Images stay in memory between calls, in one of
// two slots, so a screenshot is copied once however many of its cells are read, even between reads of
// templates. Linear memory:
//   small slot (SMALL bytes: templates) | large slot (the screenshot) | spans | row sums | the patch
// Memory grows and is never given back; the JS side drops an instance that grew large.

/** Images of up to this many bytes of RGBA go to the small slot. */
export const SMALL: i32 = 1 << 16;

let largeBytes: usize = 0;
let width: i32 = 0;
let height: i32 = 0;
let imageAt: usize = 0;

function reserve(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) return;
  const pages = <i32>((end - have + 0xffff) >> 16);
  if (memory.grow(pages) < 0) unreachable();
}

function smallAt(): usize {
  return (__heap_base + 15) & ~15;
}

function largeAt(): usize {
  return smallAt() + <usize>SMALL;
}

function scratchAt(): usize {
  return (largeAt() + largeBytes + 15) & ~15;
}

/** Where the JS side writes a width × height RGBA image into its slot (0 small, 1 large). */
export function place(slot: i32, w: i32, h: i32): usize {
  const bytes = (<usize>w * <usize>h) << 2;
  if (slot == 1 && bytes > largeBytes) largeBytes = bytes;
  reserve(scratchAt());
  return slot == 0 ? smallAt() : largeAt();
}

/**
 * The size × size patch of the image in `slot` (width × height) whose pixel i spans from left + i × stepX (and
 * top + j × stepY), clamped to the image; returns where its RGB floats are.
 */
export function patch(slot: i32, w: i32, h: i32, left: f64, stepX: f64, top: f64, stepY: f64, size: i32): usize {
  width = w;
  height = h;
  imageAt = slot == 0 ? smallAt() : largeAt();
  const n = <usize>size;
  const xs = scratchAt();
  const ys = xs + 16 * n;
  const total = ys + 16 * n;
  const out = total + 24 * n;
  const across = (out + 12 * n * n + 15) & ~15;
  reserve(across);
  spans(xs, left, stepX, size, <f64>w);
  spans(ys, top, stepY, size, <f64>h);
  const yFrom = <i32>Math.floor(load<f64>(ys));
  const yTo = <i32>Math.ceil(load<f64>(ys + 8 * (2 * n - 1)));
  reserve(across + 24 * n * <usize>max(0, yTo - yFrom));
  rowsAcross(xs, across, yFrom, yTo, size);
  const line = n * 3;
  for (let j: usize = 0; j < n; j++) {
    const from = load<f64>(ys + 16 * j);
    const to = load<f64>(ys + 16 * j + 8);
    memory.fill(total, 0, 8 * line);
    let rows: f64 = 0;
    for (let y = Math.floor(from); y < to; y++) {
      const wy = (y + 1 < to ? y + 1 : to) - (y > from ? y : from);
      const base = across + 8 * <usize>(<i32>y - yFrom) * line;
      for (let k: usize = 0; k < line; k++) store<f64>(total + 8 * k, load<f64>(total + 8 * k) + wy * load<f64>(base + 8 * k));
      rows += wy;
    }
    for (let i: usize = 0; i < n; i++) {
      const weight = rows * (load<f64>(xs + 16 * i + 8) - load<f64>(xs + 16 * i));
      const k = weight > 0 ? 1 / weight : 0;
      const at = out + 4 * (j * line + i * 3);
      store<f32>(at, <f32>(load<f64>(total + 24 * i) * k));
      store<f32>(at, <f32>(load<f64>(total + 24 * i + 8) * k), 4);
      store<f32>(at, <f32>(load<f64>(total + 24 * i + 16) * k), 8);
    }
  }
  return out;
}

/** Each source row in [yFrom, yTo) summed over each column's span (weighted by the part covered), RGB per column. */
function rowsAcross(xs: usize, across: usize, yFrom: i32, yTo: i32, size: i32): void {
  const n = <usize>size;
  for (let y = yFrom; y < yTo; y++) {
    const pixels = imageAt + 4 * <usize>y * <usize>width;
    const base = across + 24 * n * <usize>(y - yFrom);
    for (let i: usize = 0; i < n; i++) {
      const from = load<f64>(xs + 16 * i);
      const to = load<f64>(xs + 16 * i + 8);
      let r: f64 = 0;
      let g: f64 = 0;
      let b: f64 = 0;
      for (let x = Math.floor(from); x < to; x++) {
        const w = (x + 1 < to ? x + 1 : to) - (x > from ? x : from);
        const p = pixels + 4 * <usize>(<i32>x);
        r += w * <f64>load<u8>(p);
        g += w * <f64>load<u8>(p, 1);
        b += w * <f64>load<u8>(p, 2);
      }
      store<f64>(base + 24 * i, r);
      store<f64>(base + 24 * i, g, 8);
      store<f64>(base + 24 * i, b, 16);
    }
  }
}

/** Where each of `count` steps starts and ends, clamped to [0, limit]: from, to, from, to, … */
function spans(out: usize, start: f64, step: f64, count: i32, limit: f64): void {
  for (let i = 0; i < count; i++) {
    const from = min(start + <f64>i * step > 0 ? start + <f64>i * step : 0, limit);
    const to = min(start + <f64>(i + 1) * step, limit);
    store<f64>(out + 16 * <usize>i, from);
    store<f64>(out + 16 * <usize>i + 8, to > from ? to : from);
  }
}
