// A screenshot's rows as a PNG's scanlines, each filtered by Up (the byte above subtracted), for src/png.ts's
// encodePng: plain areas become runs of zeros and gradients small numbers, which deflate at its fastest level
// packs well. RGBA is narrowed to RGB on the way when the PNG has no alpha. A band of rows at a time:
//   the row above the band (RGBA) | the band (RGBA, BAND_ROWS rows) | the band's scanlines

import { reserve } from './memory';

export const BAND_ROWS: i32 = 32;

let width: i32 = 0;
let channels: i32 = 0;

function aboveAt(): usize {
  return (__heap_base + 15) & ~15;
}

function bandAt(): usize {
  return aboveAt() + ((4 * <usize>width + 15) & ~15);
}

function linesAt(): usize {
  return bandAt() + 4 * <usize>width * <usize>BAND_ROWS;
}

/**
 * Starts an image `w` pixels wide, written with `c` channels (3: RGB, 4: RGBA); returns where the JS side writes
 * each band's RGBA rows.
 */
export function start(w: i32, c: i32): usize {
  width = w;
  channels = c;
  // 16 bytes past the last scanline: a row's last 16-byte store may reach past it
  reserve(linesAt() + <usize>BAND_ROWS * (1 + <usize>c * <usize>w) + 16);
  memory.fill(aboveAt(), 0, 4 * <usize>w);
  return bandAt();
}

/** Four RGBA pixels' RGB bytes packed into the first 12 lanes (lanes past 15 read as 0). */
const RGB = i8x16(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 16, 16, 16);

/** The band's first `count` rows as scanlines (filter type 2, then each byte less the one above); returns where. */
export function upRows(count: i32): usize {
  const row: usize = 4 * <usize>width;
  const line: usize = 1 + <usize>channels * <usize>width;
  for (let y: usize = 0; y < <usize>count; y++) {
    const here = bandAt() + y * row;
    const above = y == 0 ? aboveAt() : here - row;
    const out = linesAt() + y * line;
    store<u8>(out, 2);
    let x: usize = 0;
    // a store of 16 bytes where 12 are due runs into the next scanline, written after
    if (channels == 4) {
      for (; x + 4 <= <usize>width; x += 4) v128.store(out + 1 + 4 * x, i8x16.sub(v128.load(here + 4 * x), v128.load(above + 4 * x)));
    } else {
      for (; x + 4 <= <usize>width; x += 4) v128.store(out + 1 + 3 * x, i8x16.swizzle(i8x16.sub(v128.load(here + 4 * x), v128.load(above + 4 * x)), RGB));
    }
    for (; x < <usize>width; x++) {
      for (let c: usize = 0; c < <usize>channels; c++) store<u8>(out + 1 + <usize>channels * x + c, load<u8>(here + 4 * x + c) - load<u8>(above + 4 * x + c));
    }
  }
  memory.copy(aboveAt(), bandAt() + (<usize>count - 1) * row, row);
  return linesAt();
}
