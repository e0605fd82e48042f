// Noisy scanlines as a zlib stream of Huffman-coded bytes alone (deflate's dynamic blocks with no repeats): where
// rows hardly repeat (dithered gradients, a JPEG's pixels), zlib's search for repeats finds little and costs most
// of its time, and even its run-length coding is slow. Here the codes are built per block from the block's byte
// counts and the bytes are sent in WebAssembly (wasm/png.ts).

/** The kernel's exports the coder uses (wasm/png.ts). */
export interface CoderKernel {
  memory: WebAssembly.Memory;
  startCoding(length: number): number;
  countBytes(from: number, length: number): number;
  codesTable(): number;
  sendCodes(from: number, length: number, header: boolean): void;
  makeRoom(bytes: number): void;
  finishCoded(): number;
  codedAt(): number;
}

/** Bytes per block: each block has codes of its own, so a texture that changes down the image is coded to fit. */
const BLOCK_BYTES = 1 << 17;

/** Deflate's limits on code lengths: of bytes and the end of a block, and of the code that sends those lengths. */
const MAX_LENGTH = 15;
const MAX_LENGTH_OF_LENGTHS = 7;

/** The order in which a block's header gives the lengths of the code of code lengths (RFC 1951, 3.2.7). */
const LENGTHS_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

const END_OF_BLOCK = 256;

/**
 * The `length` bytes the kernel holds from `startCoding` (or `startPacked`'s rows) as a zlib stream: blocks of
 * Huffman-coded bytes, then their Adler-32 checksum. A view of the kernel's memory, valid until its next call.
 */
export function codeHeld(kernel: CoderKernel, length: number): Uint8Array {
  for (let from = 0; from < length || from === 0; from += BLOCK_BYTES) {
    const size = Math.min(BLOCK_BYTES, length - from);
    sendBlock(kernel, from, size, from + size >= length);
  }
  const coded = kernel.finishCoded();
  return new Uint8Array(kernel.memory.buffer, kernel.codedAt(), coded);
}

/** Any bytes as a zlib stream of Huffman-coded bytes (what `codeHeld` makes of them). */
export function deflateLiterals(kernel: CoderKernel, bytes: Uint8Array): Buffer {
  const at = kernel.startCoding(bytes.length);
  new Uint8Array(kernel.memory.buffer, at, bytes.length).set(bytes);
  return Buffer.from(codeHeld(kernel, bytes.length));
}

/** One dynamic block (BTYPE 2): its header, then its bytes, then the end-of-block code. */
function sendBlock(kernel: CoderKernel, from: number, size: number, last: boolean): void {
  const counted = new Uint32Array(kernel.memory.buffer, kernel.countBytes(from, size), 256);
  const counts = new Array<number>(257);
  for (let b = 0; b < 256; b++) counts[b] = counted[b];
  counts[END_OF_BLOCK] = 1;
  const lengths = codeLengths(counts, MAX_LENGTH);
  const codes = canonicalCodes(lengths);
  let bits = 0;
  for (let b = 0; b < 256; b++) bits += counts[b] * lengths[b];
  // its header: at most 3 + 5 + 5 + 4 + 19 × 3 bits and 259 lengths of at most 7
  kernel.makeRoom(Math.ceil(bits / 8) + 300);
  const header = blockHeader(lengths, last);
  const table = new Uint32Array(kernel.memory.buffer, kernel.codesTable(), 256 + header.length + 1);
  for (let b = 0; b < 256; b++) table[b] = field(codes[b], lengths[b]);
  table.set(header, 256);
  table[256 + header.length] = field(codes[END_OF_BLOCK], lengths[END_OF_BLOCK]);
  kernel.sendCodes(0, header.length, true);
  kernel.sendCodes(from, size, false);
  kernel.sendCodes(header.length, 1, true);
}

/**
 * A dynamic block's header, as codes for `sendCodes` (bits | count << 16): BFINAL and BTYPE, the counts of codes,
 * the code of code lengths, then the code lengths of the 257 literals and of two distance codes of one bit each
 * (no repeats are sent, but a block must give a complete distance code).
 */
function blockHeader(lengths: Uint8Array, last: boolean): number[] {
  const all = new Array<number>(lengths.length + 2);
  for (let i = 0; i < lengths.length; i++) all[i] = lengths[i];
  all[lengths.length] = all[lengths.length + 1] = 1;
  const perLength = new Array<number>(19).fill(0);
  for (let i = 0; i < all.length; i++) perLength[all[i]]++;
  const lengthLengths = codeLengths(perLength, MAX_LENGTH_OF_LENGTHS);
  const lengthCodes = canonicalCodes(lengthLengths);
  let sent = LENGTHS_ORDER.length;
  while (sent > 4 && lengthLengths[LENGTHS_ORDER[sent - 1]] === 0) sent--;
  const header = [
    field((last ? 1 : 0) | (2 << 1), 3),
    field(lengths.length - 257, 5),
    field(all.length - lengths.length - 1, 5),
    field(sent - 4, 4),
  ];
  for (let i = 0; i < sent; i++) header.push(field(lengthLengths[LENGTHS_ORDER[i]], 3));
  for (let i = 0; i < all.length; i++) header.push(field(lengthCodes[all[i]], lengthLengths[all[i]]));
  return header;
}

/** A header field or code for `sendCodes`: its bits, and how many. */
const field = (value: number, bits: number): number => value | (bits << 16);

/**
 * Huffman code lengths for symbols seen `counts` times, none longer than `limit`. At least two symbols get a code,
 * as deflate's decoders expect a complete code. Codes past the limit are cut to it and shorter ones lengthened
 * until the code is complete again (as miniz does), the lightest symbols taking the longest codes.
 */
export function codeLengths(counts: readonly number[], limit: number): Uint8Array {
  const symbols = counts.length;
  const weights = new Float64Array(symbols);
  let n = 0;
  for (let i = 0; i < symbols; i++) if ((weights[i] = counts[i]) > 0) n++;
  for (let i = 0; n < 2; i++) if (weights[i] === 0) ((weights[i] = 1), n++);
  // weight and symbol in one number, sorted as numbers: the symbols in order of weight, then of symbol
  const keys = new Float64Array(n);
  for (let s = 0, k = 0; s < symbols; s++) if (weights[s] > 0) keys[k++] = weights[s] * symbols + s;
  keys.sort();
  const depths = huffmanDepths(keys, symbols);
  const perLength = new Array<number>(Math.max(limit, depths[0]) + 1).fill(0);
  for (let i = 0; i < n; i++) perLength[depths[i]]++;
  if (depths[0] > limit) {
    for (let l = limit + 1; l < perLength.length; l++) ((perLength[limit] += perLength[l]), (perLength[l] = 0));
    let total = 0;
    for (let l = 1; l <= limit; l++) total += perLength[l] * 2 ** (limit - l);
    for (; total > 2 ** limit; total--) {
      perLength[limit]--;
      for (let l = limit - 1; l > 0; l--)
        if (perLength[l] > 0) {
          perLength[l]--;
          perLength[l + 1] += 2;
          break;
        }
    }
  }
  const lengths = new Uint8Array(symbols);
  for (let i = 0, l = perLength.length - 1; i < n; i++) {
    while (perLength[l] === 0) l--;
    perLength[l]--;
    lengths[keys[i] - Math.floor(keys[i] / symbols) * symbols] = l;
  }
  return lengths;
}

/**
 * The depth of each leaf of a Huffman tree of the keys' weights (sorted keys, weight × symbols + symbol), the
 * lightest first. The two lightest nodes are joined until one is left: the leaves in order, and the joined nodes,
 * made in order of weight, in a queue of their own.
 */
function huffmanDepths(keys: Float64Array, symbols: number): Uint16Array {
  const n = keys.length;
  const weight = new Float64Array(2 * n - 1);
  for (let i = 0; i < n; i++) weight[i] = Math.floor(keys[i] / symbols);
  const parent = new Int32Array(2 * n - 1);
  let leaf = 0;
  let joined = n;
  for (let made = n; made < 2 * n - 1; made++) {
    for (let k = 0; k < 2; k++) {
      const lightest = leaf < n && (joined >= made || weight[leaf] <= weight[joined]) ? leaf++ : joined++;
      weight[made] += weight[lightest];
      parent[lightest] = made;
    }
  }
  const depth = new Uint16Array(2 * n - 1);
  for (let node = 2 * n - 3; node >= 0; node--) depth[node] = depth[parent[node]] + 1;
  return depth.subarray(0, n);
}

/** Deflate's canonical codes for the lengths (RFC 1951, 3.2.2), each bit-reversed: sent least significant first. */
export function canonicalCodes(lengths: Uint8Array): number[] {
  const perLength = new Array<number>(MAX_LENGTH + 1).fill(0);
  for (const l of lengths) if (l > 0) perLength[l]++;
  const next = new Array<number>(MAX_LENGTH + 2).fill(0);
  for (let l = 1, code = 0; l <= MAX_LENGTH; l++) next[l] = code = (code + perLength[l - 1]) << 1;
  const codes = new Array<number>(lengths.length);
  for (let i = 0; i < lengths.length; i++) codes[i] = lengths[i] > 0 ? reversed(next[lengths[i]]++, lengths[i]) : 0;
  return codes;
}

function reversed(code: number, length: number): number {
  let out = 0;
  for (let i = 0; i < length; i++) out = (out << 1) | ((code >> i) & 1);
  return out;
}
