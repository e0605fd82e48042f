// `serve`'s answer to one uploaded screenshot: the CLI's analysis and annotated picture, as the page's JSON.
import { type AnalyzeOptions, analyzeImage } from '../analyze/analyze';
import { annotate } from '../analyze/batch';
import { boardText, type JsonResult, toJson } from '../output/report';
import { explainCell } from '../output/explain';
import { parseCellName } from '../common/board';
import { now } from '../common/runtime';
import type { Analysis } from '../common/types';

export interface PageOptions extends AnalyzeOptions {
  /** Draw the heat map of mine probabilities. */
  probabilities: boolean;
}

/**
 * What the page gets for a board: the JSON of `--json` (with the mine counter, when read), plus what it draws and
 * shows on hover.
 */
export interface PageResult extends JsonResult {
  /** The annotated screenshot, a PNG data URL. */
  image: string;
  /** `--board`'s text: the board read, with m / s on certain cells. */
  boardText: string;
  /** Per certain cell ("row,col"), why it is certain, in words (as `--explain`). */
  explanations: Record<string, string>;
  /** For an inconsistent board: the counts that cannot all hold, in words. */
  conflictText: string | null;
  ms: number;
}

export interface PageError {
  status: 'error';
  error: string;
}

export interface Answer {
  code: number;
  body: PageResult | PageError;
}

/** Analyses an uploaded screenshot in memory. A screenshot that cannot be analysed is an answer (4xx), not a throw. */
export async function analyzeUpload(bytes: Buffer, options: PageOptions): Promise<Answer> {
  const started = now();
  const { analysis, image } = await analyzeImage(bytes, 'upload', options);
  if (analysis.status === 'error' || !image || !analysis.grid || !analysis.deductions) {
    const error = analysis.error ?? 'no board found';
    return { code: image ? 422 : decodeErrorCode(error), body: { status: 'error', error } };
  }
  const png = await annotate(image, analysis.grid, analysis, options.probabilities);
  const body: PageResult = {
    ...toJson(analysis, null),
    image: `data:image/png;base64,${png.toString('base64')}`,
    ...pageFacts(analysis),
    ms: Math.round(now() - started),
  };
  return { code: 200, body };
}

/** What the page shows beside the marks of a board analysed: the board read, and in words why each cell is certain. */
export function pageFacts(analysis: Analysis): Pick<PageResult, 'boardText' | 'explanations' | 'conflictText'> {
  const explanations = Object.fromEntries(
    analysis.reasons.map(({ cell }) => [String(parseCellName(cell)), explainCell(analysis, parseCellName(cell))]),
  );
  return {
    boardText: boardText(analysis),
    explanations,
    conflictText: analysis.status === 'inconsistent' ? explainCell(analysis, [0, 0]) : null,
  };
}

/** The decoder's refusals: too many pixels → 413, not an image at all → 415, empty or corrupt → 400. */
function decodeErrorCode(error: string): number {
  if (/^image too large/.test(error)) return 413;
  if (/^not (an|a readable) image/.test(error)) return 415;
  return 400;
}
