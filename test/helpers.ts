import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { main } from '../src/cli/cli';
import { parseBoard } from '../src/common/board';
import type { Board, Rect } from '../src/common/types';

export const SHARED = path.resolve(__dirname, '../../shared');
export const FIXTURES = path.resolve(__dirname, '../fixtures');

/**
 * A describe block over ../shared data: run when the data is there; when it is missing, fail under CI
 * (CI=true) and skip elsewhere.
 */
export function describeWithShared(name: string, files: string[], body: () => void): void {
  const missing = files.filter((f) => !existsSync(path.join(SHARED, f)));
  if (!missing.length) describe(name, body);
  else if (process.env.CI === 'true') {
    describe(name, () =>
      test('needs ../shared data', () => {
        throw new Error(`missing ${missing.join(', ')} under ${SHARED}`);
      }),
    );
  } else describe.skip(name, body);
}

/** The true mines beside a held-out shot (`<name>.mines.txt`, `*` a mine) as cell names; `shot` is under fixtures/. */
export function trueMines(shot: string): Set<string> {
  const rows = readFileSync(path.join(FIXTURES, shot.replace(/\.png$/, '.mines.txt')), 'utf8')
    .trim()
    .split('\n');
  return new Set(rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '*' ? [`r${r}c${c}`] : []))));
}

export function readBoard(file: string): Board {
  return parseBoard(readFileSync(file, 'utf8'));
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mine-assist-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the CLI in-process and captures what it prints. */
export async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true));
  const err = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true));
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

export async function scaled(file: string, factor: number): Promise<Buffer> {
  const { width = 0 } = await sharp(file).metadata();
  return sharp(file)
    .resize({ width: Math.round(width * factor) })
    .png()
    .toBuffer();
}

/**
 * The screenshot inside a window frame on a 1920×1080 desktop: gradient wallpaper, a column of icons,
 * a taskbar, a second window — things a locator must not mistake for the board.
 */
export async function onDesktop(file: string | Buffer, left: number, top: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(file).metadata();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#6aa3d8"/></linearGradient></defs>
    <rect width="1920" height="1080" fill="url(#g)"/>
    ` +
    Array.from(
      { length: 8 },
      (_, i) =>
        `<rect x="24" y="${24 + i * 90}" width="56" height="56" rx="6" fill="hsl(${i * 45},70%,55%)"/>` +
        `<text x="20" y="${100 + i * 90}" font-size="12" fill="white">icon ${i}</text>`,
    ).join('') +
    `
    <rect x="1300" y="120" width="480" height="360" fill="#f4f4f4" stroke="#333"/>` +
    `<rect x="1300" y="120" width="480" height="28" fill="#3b6ea5"/>
    <rect y="1040" width="1920" height="40" fill="#202020"/>
    <rect x="${left - 8}" y="${top - 32}" width="${width + 16}" height="${height + 40}" fill="#c9d6e4" stroke="#445"/>
    <text x="${left}" y="${top - 12}" font-size="14" fill="#111">Minesweeper</text></svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: file, left, top }])
    .png()
    .toBuffer();
}

export function cellsDiffer(a: Board, b: Board): string[] {
  if (a.rows !== b.rows || a.cols !== b.cols) return [`size ${a.rows}×${a.cols} vs ${b.rows}×${b.cols}`];
  const diffs: string[] = [];
  for (let r = 0; r < a.rows; r++)
    for (let c = 0; c < a.cols; c++) {
      if (a.cells[r][c] !== b.cells[r][c]) diffs.push(`r${r}c${c}: ${a.cells[r][c]} vs ${b.cells[r][c]}`);
    }
  return diffs;
}

/**
 * A tile's alpha on a rasterised sheet (`width` pixels a row, RGBA): summed over its outermost pixels, and inside
 * them.
 */
export function tileAlpha(sheet: { data: Uint8Array; width: number }, at: Rect): { edge: number; inside: number } {
  let edge = 0;
  let inside = 0;
  for (let y = 0; y < at.height; y++) {
    for (let x = 0; x < at.width; x++) {
      const alpha = sheet.data[((at.top + y) * sheet.width + at.left + x) * 4 + 3];
      if (x === 0 || y === 0 || x === at.width - 1 || y === at.height - 1) edge += alpha;
      else inside += alpha;
    }
  }
  return { edge, inside };
}
