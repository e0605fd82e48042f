// A PNG's scanlines to and from a screenshot's RGBA rows, a band of BAND_ROWS rows at a time, for speed/png.ts.
// Writing: each row filtered by Up (the byte above subtracted): plain areas become runs of zeros and gradients
// small numbers, which deflate at its fastest level packs well. RGBA is narrowed to RGB on the way when the PNG
// has no alpha. Memory:
//   the row above the band (RGBA) | the band (RGBA) | the band's scanlines
// Writing noisy rows: each filtered by Paeth, all kept, then Huffman-coded here (speed/deflate.ts builds the codes;
// memory in `startPacked`).
// Reading: each scanline's filter undone (None, Sub, Up, Average, Paeth), RGB widened to RGBA. Memory:
//   three rows, unfiltered (the row above, the row, the next) | the band (RGBA) | every scanline

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
  filterRows(count, linesAt(), 2);
  return linesAt();
}

/**
 * The band's first `count` rows as scanlines from `first` on, each under `filter` (2: Up, 4: Paeth); the band's
 * last row is kept as the next band's row above.
 */
function filterRows(count: i32, first: usize, filter: u8): void {
  const row: usize = 4 * <usize>width;
  const line: usize = 1 + <usize>channels * <usize>width;
  for (let y: usize = 0; y < <usize>count; y++) {
    const here = bandAt() + y * row;
    const above = y == 0 ? aboveAt() : here - row;
    const out = first + y * line;
    store<u8>(out, filter);
    if (filter == 2) upRow(here, above, out + 1);
    else paethRow(here, above, out + 1);
  }
  memory.copy(aboveAt(), bandAt() + (<usize>count - 1) * row, row);
}

/**
 * One row under Up, its bytes from `out` on. A store of 16 bytes where 12 are due runs into the next scanline,
 * written after.
 */
function upRow(here: usize, above: usize, out: usize): void {
  let x: usize = 0;
  if (channels == 4) {
    for (; x + 4 <= <usize>width; x += 4)
      v128.store(out + 4 * x, i8x16.sub(v128.load(here + 4 * x), v128.load(above + 4 * x)));
  } else {
    for (; x + 4 <= <usize>width; x += 4)
      v128.store(out + 3 * x, i8x16.swizzle(i8x16.sub(v128.load(here + 4 * x), v128.load(above + 4 * x)), RGB));
  }
  for (; x < <usize>width; x++) {
    for (let c: usize = 0; c < <usize>channels; c++)
      store<u8>(out + <usize>channels * x + c, load<u8>(here + 4 * x + c) - load<u8>(above + 4 * x + c));
  }
}

/**
 * Starts an image `w` × `h` written with `c` channels for `packRows` and the literal coder: its scanlines are kept
 * here, all of them, then coded where they are. Memory:
 *   the row above the band (RGBA) | the band (RGBA) | every scanline | the coder's tables | the coded bytes
 * Returns where the JS side writes each band's RGBA rows.
 */
export function startPacked(w: i32, h: i32, c: i32): usize {
  width = w;
  channels = c;
  packedRows = 0;
  startCoding(<usize>h * (1 + <usize>c * <usize>w));
  memory.fill(aboveAt(), 0, 4 * <usize>w);
  return bandAt();
}

/**
 * Starts coding `length` bytes, which the JS side writes where this returns (`startPacked` has its rows put
 * there).
 */
export function startCoding(length: usize): usize {
  packedBytes = length;
  // room for what coding bytes usually takes (at most 8 bits each, a little more for headers): memory grown block
  // by block costs more than the coding (and V8's collections with it)
  reserve(outAt() + packedBytes + packedBytes / 8 + 400 * (packedBytes / 65536 + 2));
  pendingBits = 0;
  pendingCount = 0;
  // the zlib header: deflate with a 32 KB window, fastest level (a multiple of 31, as zlib checks)
  store<u16>(outAt(), 0x0178);
  codedEnd = outAt() + 2;
  return linesAt();
}

let packedRows: usize = 0;
let packedBytes: usize = 0;

function codesAt(): usize {
  return (linesAt() + packedBytes + 16 + 15) & ~15;
}

function countsAt(): usize {
  return headerAt() + 4 * <usize>HEADER_CODES;
}

function outAt(): usize {
  return countsAt() + 4 * 4 * 256;
}

/**
 * The band's first `count` rows as the next scanlines (filter type 4, Paeth: each byte less the nearest of left,
 * up and up-left to left + up − up-left, per channel). Noisy rows (dithered gradients) keep their texture under
 * Up; under Paeth they come out as small numbers, which the literal coder packs a quarter tighter.
 */
export function packRows(count: i32): void {
  filterRows(count, linesAt() + packedRows * (1 + <usize>channels * <usize>width), 4);
  packedRows += <usize>count;
}

/**
 * One row under Paeth, its bytes from `out` on; the first pixel has nothing left of it: Paeth predicts the byte
 * above.
 */
function paethRow(here: usize, above: usize, out: usize): void {
  for (let c: usize = 0; c < <usize>channels; c++) store<u8>(out + c, load<u8>(here + c) - load<u8>(above + c));
  let x: usize = 1;
  for (; x + 4 <= <usize>width; x += 4) {
    const left = v128.load(here + 4 * x - 4);
    const up = v128.load(above + 4 * x);
    const upLeft = v128.load(above + 4 * x - 4);
    const low = paeth(
      i16x8.extend_low_i8x16_u(left), i16x8.extend_low_i8x16_u(up), i16x8.extend_low_i8x16_u(upLeft)
    );
    const high = paeth(
      i16x8.extend_high_i8x16_u(left), i16x8.extend_high_i8x16_u(up), i16x8.extend_high_i8x16_u(upLeft)
    );
    const filtered = i8x16.sub(v128.load(here + 4 * x), i8x16.narrow_i16x8_u(low, high));
    v128.store(out + <usize>channels * x, channels == 4 ? filtered : i8x16.swizzle(filtered, RGB));
  }
  for (; x < <usize>width; x++) {
    for (let c: usize = 0; c < <usize>channels; c++) {
      const a = <i32>load<u8>(here + 4 * x - 4 + c);
      const b = <i32>load<u8>(above + 4 * x + c);
      const d = <i32>load<u8>(above + 4 * x - 4 + c);
      const pa = abs(b - d);
      const pb = abs(a - d);
      const pc = abs(a + b - 2 * d);
      const predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : d;
      store<u8>(out + <usize>channels * x + c, <i32>load<u8>(here + 4 * x + c) - predicted);
    }
  }
}

/**
 * How often each byte value occurs in the scanlines' bytes [from, from + length): 256 u32 counts; returns where.
 * Four tables, a byte's count in the table of its place mod 4, so that neighbours equal seldom wait on each other.
 */
export function countBytes(from: usize, length: usize): usize {
  const counts = countsAt();
  memory.fill(counts, 0, 4 * 4 * 256);
  const start = linesAt() + from;
  const end = start + length;
  let p = start;
  for (; p + 4 <= end; p += 4) {
    const four = load<u32>(p);
    const at0 = counts + 4 * (four & 0xff);
    const at1 = counts + 1024 + 4 * ((four >> 8) & 0xff);
    const at2 = counts + 2048 + 4 * ((four >> 16) & 0xff);
    const at3 = counts + 3072 + 4 * (four >> 24);
    store<u32>(at0, load<u32>(at0) + 1);
    store<u32>(at1, load<u32>(at1) + 1);
    store<u32>(at2, load<u32>(at2) + 1);
    store<u32>(at3, load<u32>(at3) + 1);
  }
  for (; p < end; p++) {
    const at = counts + 4 * <usize>load<u8>(p);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let i: usize = 0; i < 256; i++) {
    store<u32>(
      counts + 4 * i,
      load<u32>(counts + 4 * i) + load<u32>(counts + 1024 + 4 * i) + load<u32>(counts + 2048 + 4 * i)
        + load<u32>(counts + 3072 + 4 * i)
    );
  }
  return counts;
}

/** Room for `bytes` more of coded bytes (the JS side knows a block's size from its counts and codes). */
export function makeRoom(bytes: usize): void {
  reserve(codedEnd + bytes + 8);
}

/** Where the JS side writes each byte value's code for `sendCodes`, then a block's header as codes. */
export function codesTable(): usize {
  return codesAt();
}

/** Room in the codes table for a block's header: codes for its fields and its code lengths. */
const HEADER_CODES: i32 = 512;

function headerAt(): usize {
  return codesAt() + 4 * 256;
}

// Bits sent and not yet a whole byte (fewer than 8); bytes go to `codedEnd`.
let pendingBits: u64 = 0;
let pendingCount: u64 = 0;
let codedEnd: usize = 0;

/**
 * The codes from `codesTable` of the bytes [from, from + length) of the scanlines (`header` false), or of `length`
 * u32 codes at `from` of the table's room for a header (`header` true): each code its bits in the order they are
 * sent (least significant first, deflate's order) and its length << 16. Three codes (at most 45 bits) join at
 * most 7 pending; then 8 bytes are stored, of which the whole ones are kept.
 */
export function sendCodes(from: usize, length: usize, header: bool): void {
  if (header) {
    for (let p = headerAt() + 4 * from, end = p + 4 * length; p < end; p += 4) sendCode(load<u32>(p));
    return;
  }
  const codes = codesAt();
  const end = linesAt() + from + length;
  let p = linesAt() + from;
  // the pending bits in locals through the long loop
  let pending = pendingBits;
  let count = pendingCount;
  let to = codedEnd;
  for (; p + 3 <= end; p += 3) {
    const first = load<u32>(codes + 4 * <usize>load<u8>(p));
    const second = load<u32>(codes + 4 * <usize>load<u8>(p, 1));
    const third = load<u32>(codes + 4 * <usize>load<u8>(p, 2));
    pending |= <u64>(first & 0xffff) << count;
    count += <u64>(first >> 16);
    pending |= <u64>(second & 0xffff) << count;
    count += <u64>(second >> 16);
    pending |= <u64>(third & 0xffff) << count;
    count += <u64>(third >> 16);
    store<u64>(to, pending);
    to += <usize>(count >> 3);
    pending >>= count & ~7;
    count &= 7;
  }
  pendingBits = pending;
  pendingCount = count;
  codedEnd = to;
  for (; p < end; p++) sendCode(load<u32>(codes + 4 * <usize>load<u8>(p)));
}

/** One code sent (its bits, and its length << 16). */
// @ts-ignore: decorator
@inline function sendCode(code: u32): void {
  pendingBits |= <u64>(code & 0xffff) << pendingCount;
  pendingCount += <u64>(code >> 16);
  store<u64>(codedEnd, pendingBits);
  codedEnd += <usize>(pendingCount >> 3);
  pendingBits >>= pendingCount & ~7;
  pendingCount &= 7;
}

/**
 * The bits sent so far padded to a whole byte, then the Adler-32 checksum of every scanline (big-endian, as a zlib
 * stream ends); returns the zlib stream's length, from `codedAt`.
 */
export function finishCoded(): usize {
  if (pendingCount > 0) {
    store<u8>(codedEnd, <u8>pendingBits);
    codedEnd += 1;
  }
  pendingBits = 0;
  pendingCount = 0;
  const sum = adler32(linesAt(), packedBytes);
  store<u32>(codedEnd, bswap<u32>(sum));
  codedEnd += 4;
  return codedEnd - outAt();
}

/** Where the zlib stream is (its header, then the bits sent). */
export function codedAt(): usize {
  return outAt();
}

/**
 * zlib's Adler-32, sixteen bytes at a time: over a block of chunks, a (the bytes' sum) grows by each chunk's sum,
 * and b by 16 × a before each chunk plus the chunk's bytes weighted 16 down to 1. Per lane, the sums of bytes,
 * of those sums (the a before each chunk, less the block's first) and of the weighted bytes stay under 2^32 over a
 * block of ADLER_BLOCK bytes; a and b are taken modulo 65521 after each block, and the last few bytes one by one.
 */
function adler32(from: usize, length: usize): u32 {
  let a: u64 = 1;
  let b: u64 = 0;
  let p = from;
  const end = from + length;
  const weights = i8x16(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  while (end - p >= 16) {
    const stop = p + min<usize>(ADLER_BLOCK, (end - p) & ~15);
    const chunks = <u64>((stop - p) >> 4);
    let sums = i32x4.splat(0);
    let before = i32x4.splat(0);
    let weighted = i32x4.splat(0);
    for (; p < stop; p += 16) {
      const bytes = v128.load(p);
      before = i32x4.add(before, sums);
      sums = i32x4.add(sums, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(bytes)));
      const products = i16x8.add(i16x8.extmul_low_i8x16_u(bytes, weights), i16x8.extmul_high_i8x16_u(bytes, weights));
      weighted = i32x4.add(weighted, i32x4.extadd_pairwise_i16x8_u(products));
    }
    b += 16 * chunks * a + 16 * lanesSum(before) + lanesSum(weighted);
    a += lanesSum(sums);
    a %= 65521;
    b %= 65521;
  }
  for (; p < end; p++) {
    a += <u64>load<u8>(p);
    b += a;
  }
  return <u32>(((b % 65521) << 16) | (a % 65521));
}

/** Bytes of one Adler-32 block: a multiple of 16 under zlib's 5552, past which its 32-bit sums could overflow. */
const ADLER_BLOCK: usize = 5536;

// @ts-ignore: decorator
@inline function lanesSum(v: v128): u64 {
  return <u64>i32x4.extract_lane(v, 0) + <u64>i32x4.extract_lane(v, 1) + <u64>i32x4.extract_lane(v, 2)
    + <u64>i32x4.extract_lane(v, 3);
}

let rowBytes: usize = 0;
let above: usize = 0;
let row: usize = 0;
let next: usize = 0;
let third: usize = 0;
let fourth: usize = 0;

/** Room for a row of `rowBytes` and 16 bytes past it (a 16-byte load or store may reach past the row). */
function rowRoom(): usize {
  return 16 + ((rowBytes + 15) & ~15);
}

/** Reading lays out its memory from where writing does (one image at a time). */
function rowsAt(): usize {
  return aboveAt();
}

function rgbaAt(): usize {
  return rowsAt() + 5 * rowRoom();
}

function scanlinesAt(): usize {
  return rgbaAt() + ((4 * <usize>width * <usize>BAND_ROWS + 15) & ~15);
}

/** Where the next band's scanlines start. */
let unread: usize = 0;

/**
 * Starts reading an image `w` × `h` pixels with `c` channels (3: RGB, 4: RGBA); returns where the JS side writes
 * (or zlib inflates) all its scanlines, with room for a byte more and 16 past that. `unfilterRows` reads them band
 * by band.
 */
export function startReading(w: i32, h: i32, c: i32): usize {
  width = w;
  channels = c;
  rowBytes = <usize>c * <usize>w;
  reserve(scanlinesAt() + <usize>h * (1 + rowBytes) + 1 + 16);
  memory.fill(rowsAt(), 0, 5 * rowRoom());
  above = rowsAt();
  row = above + rowRoom();
  next = row + rowRoom();
  third = next + rowRoom();
  fourth = third + rowRoom();
  unread = scanlinesAt();
  return scanlinesAt();
}

/** The next `count` scanlines unfiltered into the band's RGBA rows; returns where, or 0 for a filter type past 4. */
export function unfilterRows(count: i32): usize {
  const line: usize = 1 + rowBytes;
  for (let y: usize = 0; y < <usize>count; ) {
    const from = unread + y * line;
    const filter = load<u8>(from);
    if (filter > 4) return 0;
    if (filter == 4 && y + 3 < <usize>count && width >= 4 && load<u8>(from + line) == 4
      && load<u8>(from + 2 * line) == 4 && load<u8>(from + 3 * line) == 4) {
      paethQuad(from + 1, from + line + 1, from + 2 * line + 1, from + 3 * line + 1);
      widen(row, rgbaAt() + 4 * <usize>width * y);
      widen(next, rgbaAt() + 4 * <usize>width * (y + 1));
      widen(third, rgbaAt() + 4 * <usize>width * (y + 2));
      widen(fourth, rgbaAt() + 4 * <usize>width * (y + 3));
      const free = above;
      above = fourth;
      fourth = free;
      y += 4;
      continue;
    }
    if (filter == 4 && y + 1 < <usize>count && load<u8>(from + line) == 4) {
      paethPair(from + 1, from + line + 1);
      widen(row, rgbaAt() + 4 * <usize>width * y);
      widen(next, rgbaAt() + 4 * <usize>width * (y + 1));
      const free = above;
      above = next;
      next = free;
      y += 2;
      continue;
    }
    unfilter(filter, from + 1);
    widen(row, rgbaAt() + 4 * <usize>width * y);
    const done = row;
    row = above;
    above = done;
    y++;
  }
  unread += <usize>count * line;
  return rgbaAt();
}

/** One scanline's filter undone into `row`, from `above` (all 0 above the first row, and left of the first pixel). */
function unfilter(filter: u8, from: usize): void {
  const step = <usize>channels;
  if (filter == 0) {
    memory.copy(row, from, rowBytes);
  } else if (filter == 2) {
    for (let i: usize = 0; i < rowBytes; i += 16)
      v128.store(row + i, i8x16.add(v128.load(from + i), v128.load(above + i)));
  } else if (filter == 1) {
    // four bytes a pixel: of RGB, the fourth is the next pixel's first, written over by it (or past the row)
    let left = i8x16.splat(0);
    for (let i: usize = 0; i < rowBytes; i += step) {
      left = i8x16.add(v128.load32_zero(from + i), left);
      v128.store32_lane(row + i, left, 0);
    }
  } else if (filter == 3) {
    let left = i8x16.splat(0);
    const one = i8x16.splat(1);
    for (let i: usize = 0; i < rowBytes; i += step) {
      const up = v128.load32_zero(above + i);
      const mean = i8x16.sub(i8x16.avgr_u(left, up), v128.and(v128.xor(left, up), one));
      left = i8x16.add(v128.load32_zero(from + i), mean);
      v128.store32_lane(row + i, left, 0);
    }
  } else {
    let left = i16x8.splat(0);
    let upLeft = i16x8.splat(0);
    for (let i: usize = 0; i < rowBytes; i += step) {
      const up = i16x8.extend_low_i8x16_u(v128.load32_zero(above + i));
      const predicted = paeth(left, up, upLeft);
      const pixel = i8x16.add(v128.load32_zero(from + i), i8x16.narrow_i16x8_u(predicted, predicted));
      v128.store32_lane(row + i, pixel, 0);
      left = i16x8.extend_low_i8x16_u(pixel);
      upLeft = up;
    }
  }
}

/** Paeth's predictor, lane by lane: of left, up and up-left, the nearest to left + up − up-left. */
// @ts-ignore: decorator
@inline function paeth(left: v128, up: v128, upLeft: v128): v128 {
  const toLeft = i16x8.sub(up, upLeft);
  const toUp = i16x8.sub(left, upLeft);
  const pa = i16x8.abs(toLeft);
  const pb = i16x8.abs(toUp);
  const pc = i16x8.abs(i16x8.add(toLeft, toUp));
  const takeLeft = v128.and(i16x8.le_s(pa, pb), i16x8.le_s(pa, pc));
  return v128.bitselect(left, v128.bitselect(up, upLeft, i16x8.le_s(pb, pc)), takeLeft);
}

/**
 * Two rows filtered by Paeth, into `row` and `next`, at once: a pixel of the second needs only the pixels of the
 * first up to its own column, so the second row runs a pixel behind the first, in the high four lanes (the
 * first's in the low four), and each step of the chain through left neighbours does two pixels.
 */
function paethPair(first: usize, second: usize): void {
  const step = <usize>channels;
  const low = i16x8(-1, -1, -1, -1, 0, 0, 0, 0);
  const bytes = i16x8.splat(0xff);
  // the first row's first pixel; nothing of the second yet
  let upLeft = i16x8.splat(0);
  let up = i16x8.extend_low_i8x16_u(v128.load32_zero(above));
  let left = v128.and(
    v128.and(i16x8.add(i16x8.extend_low_i8x16_u(v128.load32_zero(first)), paeth(upLeft, up, upLeft)), bytes), low
  );
  v128.store32_lane(row, i8x16.narrow_i16x8_u(left, left), 0);
  let i: usize = step;
  for (; i < rowBytes; i += step) {
    // low lanes: the first row at i; high lanes: the second at i − step
    upLeft = up;
    up = i8x16.shuffle(
      i16x8.extend_low_i8x16_u(v128.load32_zero(above + i)), left,
      0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23
    );
    const filtered = i16x8.extend_low_i8x16_u(v128.load32_lane(second + i - step, v128.load32_zero(first + i), 1));
    left = v128.and(i16x8.add(filtered, paeth(left, up, upLeft)), bytes);
    const pixels = i8x16.narrow_i16x8_u(left, left);
    v128.store32_lane(row + i, pixels, 0);
    v128.store32_lane(next + i - step, pixels, 1);
  }
  // the second row's last pixel
  upLeft = up;
  up = i8x16.shuffle(up, left, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
  const filtered = i16x8.extend_low_i8x16_u(v128.load32_lane(second + i - step, i16x8.splat(0), 1));
  left = v128.and(i16x8.add(filtered, paeth(left, up, upLeft)), bytes);
  v128.store32_lane(next + i - step, i8x16.narrow_i16x8_u(left, left), 1);
}

/**
 * Four rows filtered by Paeth, into `row`, `next`, `third` and `fourth`, at once: as `paethPair`, each row runs a
 * pixel behind the one above it, rows 1 and 2 in the low and high lanes of one vector, rows 3 and 4 in another, so
 * that each step through left neighbours does four pixels in two independent chains. Before each row's first pixel
 * its lanes are held at 0 (its left, and the up-left of the row below); past its last, they run on unstored, and
 * feed only lanes past the end of the rows below. At least four pixels a row.
 */
function paethQuad(f0: usize, f1: usize, f2: usize, f3: usize): void {
  const step = <usize>channels;
  const n = <usize>width;
  const bytes = i16x8.splat(0xff);
  const firstRow = i16x8(-1, -1, -1, -1, 0, 0, 0, 0);
  let leftA = i16x8.splat(0);
  let leftB = i16x8.splat(0);
  let upA = i16x8.splat(0);
  let upB = i16x8.splat(0);
  for (let k: usize = 0; k < n + 3; k++) {
    const upLeftA = upA;
    const upLeftB = upB;
    // the first row's up from the row above; each other row's from the row above it, a step ago
    upA = i8x16.shuffle(
      i16x8.extend_low_i8x16_u(v128.load32_zero(above + k * step)), leftA,
      0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23
    );
    upB = i8x16.shuffle(leftA, leftB, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
    const at = k * step;
    const filteredA = i16x8.extend_low_i8x16_u(v128.load32_lane(f1 + at - step, v128.load32_zero(f0 + at), 1));
    const filteredB = i16x8.extend_low_i8x16_u(
      v128.load32_lane(f3 + at - 3 * step, v128.load32_zero(f2 + at - 2 * step), 1)
    );
    leftA = v128.and(i16x8.add(filteredA, paeth(leftA, upA, upLeftA)), bytes);
    leftB = v128.and(i16x8.add(filteredB, paeth(leftB, upB, upLeftB)), bytes);
    if (k < 3) {
      if (k == 0) leftA = v128.and(leftA, firstRow);
      if (k < 2) leftB = i16x8.splat(0);
      else leftB = v128.and(leftB, firstRow);
    }
    const pixelsA = i8x16.narrow_i16x8_u(leftA, leftA);
    const pixelsB = i8x16.narrow_i16x8_u(leftB, leftB);
    if (k < n) v128.store32_lane(row + at, pixelsA, 0);
    if (k >= 1 && k <= n) v128.store32_lane(next + at - step, pixelsA, 1);
    if (k >= 2 && k <= n + 1) v128.store32_lane(third + at - 2 * step, pixelsB, 0);
    if (k >= 3) v128.store32_lane(fourth + at - 3 * step, pixelsB, 1);
  }
}

/** Four RGB pixels' bytes spread to RGBA (alpha lanes read as 0, then set). */
const RGBA = i8x16(0, 1, 2, 16, 3, 4, 5, 16, 6, 7, 8, 16, 9, 10, 11, 16);
const OPAQUE = i32x4.splat(0xff000000);

/** An unfiltered row as RGBA pixels at `to`. */
function widen(row: usize, to: usize): void {
  if (channels == 4) {
    memory.copy(to, row, rowBytes);
    return;
  }
  let x: usize = 0;
  for (; x + 4 <= <usize>width; x += 4)
    v128.store(to + 4 * x, v128.or(i8x16.swizzle(v128.load(row + 3 * x), RGBA), OPAQUE));
  for (; x < <usize>width; x++) store<u32>(to + 4 * x, (load<u32>(row + 3 * x) & 0xffffff) | 0xff000000);
}
