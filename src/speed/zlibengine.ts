// zlib engines kept from one image to the next, driven through their native handles. Node has no public way to
// inflate or deflate into a buffer of one's own: inflateSync and deflateSync make an engine and new output buffers
// for every call, and a batch worker frees those only at a later collection; glibc may hand the memory back to the
// system in between, and each screenshot's scanlines then come back as fresh pages, which are costly to touch.
// This drives a handle as they do (node's lib/zlib.js, processChunkSync).
// Where node's engines have no such handle, `keptEngine` gives null and the caller uses the public calls.
import { Deflate, Inflate } from 'node:zlib';

/** What is driven of an engine of node's lib/zlib.js: absent from its public type. */
export interface Engine {
  _handle?: {
    writeSync(
      flush: number,
      input: Uint8Array,
      inOffset: number,
      inLength: number,
      out: Uint8Array,
      outOffset: number,
      outLength: number,
    ): void;
  } | null;
  _writeState?: Uint32Array;
  reset(): void;
}

export type EngineKind = 'inflate' | 'deflate';

const kept = new Map<EngineKind, Engine>();

/**
 * This thread's engine of that kind (deflate: level 1), reset for a new stream; a new one when the last was
 * destroyed (zlib found its stream corrupt); null when node's engines have no handle to drive.
 */
export function keptEngine(kind: EngineKind): Engine | null {
  const engine = kept.get(kind);
  if (engine?._handle) {
    engine.reset();
    return engine;
  }
  const made = kind === 'inflate' ? new Inflate() : new Deflate({ level: 1 });
  // a corrupt stream is reported here too, once the call that found it has returned
  made.on('error', () => undefined);
  const driven = made as unknown as Engine;
  if (!driven._handle || !driven._writeState) return null;
  kept.set(kind, driven);
  return driven;
}

/** What a call left: room in the output, and input not taken. */
export interface Left {
  room: number;
  input: number;
}

/**
 * One call of the engine on `input` from `inOffset`, its output written into `out` from `outOffset` on; null when
 * zlib reported an error (the engine is then destroyed).
 */
export function drive(
  engine: Engine,
  flush: number,
  input: Uint8Array,
  inOffset: number,
  out: Uint8Array,
  outOffset: number,
): Left | null {
  const handle = engine._handle;
  if (!handle) return null;
  handle.writeSync(flush, input, inOffset, input.length - inOffset, out, outOffset, out.length - outOffset);
  const state = engine._writeState as Uint32Array;
  return engine._handle ? { room: state[0], input: state[1] } : null;
}
