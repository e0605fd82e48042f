// `serve`'s guards on an upload: the body read into memory up to a byte cap, image content types only, and a
// small queue so that only a few analyses run at once (the others wait their turn).
import type { IncomingMessage } from 'node:http';

/** A request body, or how many bytes came when it was over the cap (those past the cap are read and dropped). */
export type Body = { bytes: Buffer } | { tooLarge: number };

/**
 * Reads the body into memory, keeping at most `maxBytes`. A larger one is still read to its end (and dropped),
 * so the client is not cut off mid-upload and sees the answer; past `drainLimit` bytes the connection is dropped.
 */
export function readBody(req: IncomingMessage, maxBytes: number, drainLimit = 8 * maxBytes): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > drainLimit) req.destroy();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (chunks.length) chunks.length = 0;
      if (size > drainLimit) req.destroy();
    });
    req.on('end', () => resolve(size > maxBytes ? { tooLarge: size } : { bytes: Buffer.concat(chunks, size) }));
    req.on('error', reject);
    req.on('close', () => reject(new Error('the upload was cut off')));
  });
}

/** Content types an upload may have: any image/* (the decoder then checks that it really is an image). */
export function isImageType(contentType: string | undefined): boolean {
  return /^image\/[a-z0-9.+-]+\s*(;|$)/i.test(contentType ?? '');
}

/** A counting semaphore with a bounded waiting line: `run` waits for a free slot, `full` says when to turn away. */
export class Queue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
  ) {}

  /** True when even the waiting line is full. */
  get full(): boolean {
    return this.running >= this.slots && this.waiting.length >= this.maxWaiting;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
