// The WebAssembly kernels (wasm/*.ts, built into dist/*.wasm): each compiled once per process and made on
// first use. An instance is dropped after a trap, or once its memory (grown to the largest image it has held,
// never given back) is past what is worth keeping; the next use makes a new one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST } from '../common/paths';

export class Kernel<T extends { memory: WebAssembly.Memory }> {
  private compiled: WebAssembly.Module | null = null;
  private instance: T | null = null;

  /** `file` in dist/; an instance whose memory grows past `keepMemory` bytes is not kept. */
  constructor(
    private readonly file: string,
    private readonly keepMemory: number,
  ) {}

  get(): T {
    this.compiled ??= new WebAssembly.Module(readFileSync(path.join(DIST, this.file)));
    this.instance ??= new WebAssembly.Instance(this.compiled, {}).exports as unknown as T;
    return this.instance;
  }

  drop(): void {
    this.instance = null;
  }

  /** Whether the instance's memory is past what is kept (it is then to be dropped). */
  oversized(): boolean {
    return this.instance !== null && this.instance.memory.buffer.byteLength > this.keepMemory;
  }
}
