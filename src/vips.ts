// sharp (libvips) loaded on first use: ~40 ms of a start. A batch's main thread, which hands every file to the
// workers, never loads it.
import type Sharp from 'sharp';

let loaded: typeof Sharp | undefined;

export function vips(): typeof Sharp {
  return (loaded ??= require('sharp') as typeof Sharp); // eslint-disable-line @typescript-eslint/no-require-imports
}
