// `serve`'s watches: POST /api/watch/<id> with one frame of a shared window, answered with what the page draws
// over its live view (no picture: the page has the frame). A watch keeps its last frame and what was read in it
// (analyze/watch.ts), so a frame is read only where its cells changed; a frame equal to the last, byte for byte,
// costs a comparison. Watches live in memory only, a few at a time, and end after a while unused.
import { type WatchMemory, watchFrame } from '../analyze/watch';
import type { AnalyzeOptions } from '../analyze/analyze';
import { decode } from '../image/decode';
import { toJson, type JsonResult } from '../output/report';
import type { Analysis, Coord, RgbaImage } from '../common/types';
import { now } from '../common/runtime';
import { pageFacts, type PageResult } from './reply';

/** What the page gets for a frame. */
export interface WatchResult extends Omit<JsonResult, 'output'> {
  /** What the player sees: a game on, lost, won, no board in the frame, or a board as read that cannot be. */
  game: 'playing' | 'lost' | 'won' | 'no board' | 'inconsistent';
  /** `same`: no cell changed; `cells`: only the changed cells read again; `full`: read from scratch. */
  how: 'same' | 'cells' | 'full' | 'unchanged';
  /** Cells whose pixels changed (null when read from scratch). */
  changed: number | null;
  boardText: PageResult['boardText'];
  explanations: PageResult['explanations'];
  conflictText: PageResult['conflictText'];
  /** Frames this watch has answered. */
  frame: number;
  ms: number;
}

/** A frame as sent: raw RGBA pixels of a known size (what a canvas gives), or an encoded image. */
export type Frame = { rgba: Buffer; width: number; height: number } | { encoded: Buffer };

interface Watch {
  memory: WatchMemory | null;
  bytes: Buffer | null;
  last: WatchResult | null;
  /** The frame being read: frames of one watch are read one after another. */
  turn: Promise<unknown>;
  used: number;
  frames: number;
}

export class Watches {
  private readonly watches = new Map<string, Watch>();

  constructor(
    private readonly most = 8,
    private readonly idleMs = 10 * 60_000,
  ) {}

  /** Whether another watch can start now (the ones unused for long are ended first). */
  room(id: string): boolean {
    this.expire();
    return this.watches.has(id) || this.watches.size < this.most;
  }

  end(id: string): boolean {
    return this.watches.delete(id);
  }

  /** The frame read in its watch's turn; a frame equal to the last one is answered with the last answer. */
  async frame(id: string, frame: Frame, options: AnalyzeOptions): Promise<WatchResult> {
    let watch = this.watches.get(id);
    if (!watch) {
      watch = { memory: null, bytes: null, last: null, turn: Promise.resolve(), used: Date.now(), frames: 0 };
      this.watches.set(id, watch);
    }
    const it = watch;
    const result = it.turn.then(() => this.read(it, frame, options));
    it.turn = result.catch(() => undefined);
    return result;
  }

  private async read(watch: Watch, frame: Frame, options: AnalyzeOptions): Promise<WatchResult> {
    const started = now();
    watch.used = Date.now();
    watch.frames++;
    const bytes = 'rgba' in frame ? frame.rgba : frame.encoded;
    const key = JSON.stringify(options);
    if (watch.last && watch.bytes?.equals(bytes) && watch.memory?.options === key)
      return { ...watch.last, how: 'unchanged', changed: 0, frame: watch.frames, ms: Math.round(now() - started) };
    const image = await pixels(frame);
    const step = await watchFrame(watch.memory, image, options);
    watch.memory = step.memory;
    watch.bytes = bytes;
    watch.last = {
      ...answer(step.memory.analysis),
      how: step.how,
      changed: step.changed && step.changed.length,
      frame: watch.frames,
      ms: Math.round(now() - started),
    };
    return watch.last;
  }

  private expire(): void {
    const old = Date.now() - this.idleMs;
    for (const [id, watch] of this.watches) if (watch.used < old) this.watches.delete(id);
  }
}

async function pixels(frame: Frame): Promise<RgbaImage> {
  if ('encoded' in frame) return decode(frame.encoded);
  const { rgba, width, height } = frame;
  return { width, height, data: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length), opaque: true };
}

type Answer = Omit<WatchResult, 'how' | 'changed' | 'frame' | 'ms'>;

function answer(analysis: Analysis): Answer {
  const { output: _, ...json } = toJson({ ...analysis, readings: null }, null);
  if (analysis.status === 'error' || !analysis.board)
    return { ...json, game: 'no board', boardText: '', explanations: {}, conflictText: null };
  return { ...json, game: gameOf(analysis, json.mines), ...pageFacts(analysis) };
}

/**
 * Lost: the game shows a mine or a wrong flag. Won: every closed cell is a certain mine (the game has ended when
 * only mines are left closed), nothing unreadable, and some cell is open.
 */
function gameOf(analysis: Analysis, mines: Coord[]): WatchResult['game'] {
  if (analysis.status === 'inconsistent') return 'inconsistent';
  const cells = (analysis.board?.cells ?? []).flat();
  if (cells.some((c) => c === '*' || c === 'X' || c === '!')) return 'lost';
  const closed = cells.filter((c) => c === '.' || c === '?' || c === 'F').length;
  const open = cells.length - closed;
  return open > 0 && !analysis.unreadable.length && closed === mines.length ? 'won' : 'playing';
}
