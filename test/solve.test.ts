import * as fs from 'fs';
import * as path from 'path';
import { cellName, formatBoard, neighbours, parseBoard, parseCellName } from '../src/common/board';
import { encode, type EncodeOptions } from '../src/solve/encode';
import { satConfirms, satisfiable, solve } from '../src/solve/solve';
import * as cardinality from '../src/solve/cardinality';
import { MiniSat } from '../src/solve/minisat';
import { shapeOf } from '../src/solve/space';
import type { Board, Constraint, Coord, Deductions, Problem } from '../src/common/types';
import {
  bruteBoard,
  bruteProblem,
  endgamePosition,
  type Game,
  mulberry32,
  open,
  randomGame,
  smallPosition,
} from './brute';

const SEED = 20240601;
const show = (board: Board) => formatBoard(board).trimEnd();
const deduce = (text: string, options: EncodeOptions = {}) => solve(encode(parseBoard(text), options));

describe('solve vs brute force', () => {
  test('500 random small positions, without and with the total, flags as hints and trusted', () => {
    const failures: string[] = [];
    let deductions = 0;
    for (let i = 0; i < 500; i++) {
      const seed = SEED + i;
      const { mine, board } = smallPosition(seed);
      const total = mine.flat().filter(Boolean).length;
      const trusts = board.cells.flat().includes('F') ? [false, true] : [false];
      for (const totalMines of [null, total]) {
        for (const trustFlags of trusts) {
          const actual = solve(encode(board, { totalMines, trustFlags }));
          const expected = bruteBoard(board, totalMines, trustFlags);
          deductions += actual.mines.length + actual.safe.length;
          if (JSON.stringify(actual) !== JSON.stringify(expected)) {
            failures.push(
              `seed ${seed} total=${totalMines} trustFlags=${trustFlags}\n${show(board)}\n` +
                `solve ${JSON.stringify(actual)}\nbrute ${JSON.stringify(expected)}`,
            );
          }
        }
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(deductions).toBeGreaterThan(1000);
  });

  test('300 random problems, including constraints over > 8 cells and over every unknown (and satisfiable)', () => {
    const failures: string[] = [];
    const statuses = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const rand = mulberry32(SEED * 7 + i);
      const unknowns = Array.from({ length: 1 + Math.floor(rand() * 12) }, (_, c) => cellName(0, c));
      const truth = unknowns.map(() => rand() < 0.4);
      const constraints: Constraint[] = Array.from({ length: Math.floor(rand() * 6) }, () => {
        const cells = rand() < 0.2 ? unknowns : unknowns.filter(() => rand() < 0.5);
        const count = cells.filter((name) => truth[parseCellName(name)[1]]).length + (rand() < 0.1 ? 1 : 0);
        return { cells, count, source: 'random' };
      });
      const problem: Problem = { unknowns, constraints };
      const actual = solve(problem);
      const expected = bruteProblem(problem);
      statuses.add(actual.status);
      if (satisfiable(problem) !== (expected.status === 'ok'))
        failures.push(`case ${i}: satisfiable says ${satisfiable(problem)}`);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        failures.push(
          `case ${i} ${JSON.stringify(problem)}\n` +
            `solve ${JSON.stringify(actual)}\nbrute ${JSON.stringify(expected)}`,
        );
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect([...statuses].sort()).toEqual(['inconsistent', 'ok']);
  });
});

describe("the SAT check of the counting engine's claims", () => {
  test('600 small positions with a total (right, one off, a count misread): claims confirmed iff certain', () => {
    const adders = jest.spyOn(cardinality, 'sumBits');
    const failures: string[] = [];
    const seen = { confirmed: 0, refuted: 0, withAdder: 0, withoutAdder: 0 };
    for (let i = 0; i < 600; i++) {
      const rand = mulberry32(SEED * 19 + i);
      const { mine, board } = i % 2 ? smallPosition(SEED * 23 + i) : endgamePosition(SEED * 23 + i);
      const total = mine.flat().filter(Boolean).length + (i % 10 === 9 ? 1 : 0);
      if (i % 10 === 4) misread(board, rand);
      const problem = encode(board, { totalMines: total });
      const shape = shapeOf(problem);
      const truth = bruteProblem(problem);
      if (shape === null) continue;
      const outside = new Set(shape.outside);
      const [mines, safe] = [new Set(truth.mines), new Set(truth.safe)];
      // claims as the counting engine makes them: frontier cells one by one, the outside cells all together
      const units = [...shape.frontier.map((cell) => [cell]), ...(shape.outside.length ? [shape.outside] : [])];
      const claimed: Deductions = {
        status: rand() < 0.1 ? (truth.status === 'ok' ? 'inconsistent' : 'ok') : truth.status,
        mines: [],
        safe: [],
      };
      let wrongClaim = false;
      for (const unit of units) {
        const certain = mines.has(unit[0]) ? 'mine' : safe.has(unit[0]) ? 'safe' : null;
        const pick = rand();
        if (pick < 0.5 && certain) claimed[certain === 'mine' ? 'mines' : 'safe'].push(...unit);
        else if (pick > 0.93) {
          const as = rand() < 0.5 ? 'mines' : 'safe';
          claimed[as].push(...unit);
          if (certain !== (as === 'mines' ? 'mine' : 'safe')) wrongClaim = true;
        }
      }
      // an inconsistent problem makes every claim vacuous: only the status counts
      const right = claimed.status === truth.status && (truth.status === 'inconsistent' || !wrongClaim);
      const before = adders.mock.calls.length;
      const confirmed = satConfirms(problem, claimed);
      seen[adders.mock.calls.length > before ? 'withAdder' : 'withoutAdder']++;
      seen[confirmed ? 'confirmed' : 'refuted']++;
      if (confirmed !== right)
        failures.push(
          `case ${i} total=${total} outside=${[...outside]}\n${show(board)}\n` +
            `claimed ${JSON.stringify(claimed)}\nbrute ${JSON.stringify(truth)}`,
        );
    }
    adders.mockRestore();
    expect(failures.slice(0, 3)).toEqual([]);
    // both ways are taken: settled without the total's adder, and checked with it
    expect(Math.min(seen.confirmed, seen.refuted, seen.withAdder, seen.withoutAdder)).toBeGreaterThan(50);
  });
});

/** One count read one higher (mod 9): the counts alone often cannot all hold then. */
function misread(board: Board, rand: () => number): void {
  const counts = board.cells.flatMap((row, r) => row.flatMap((cell, c) => (/^[0-8]$/.test(cell) ? [[r, c]] : [])));
  const [r, c] = counts[Math.floor(rand() * counts.length)];
  board.cells[r][c] = String((Number(board.cells[r][c]) + 1) % 9);
}

describe('expert boards (16x30, 99 mines)', () => {
  test('30 partially opened boards: every certain cell agrees with the layout, as play goes on', () => {
    const failures: string[] = [];
    let deductions = 0;
    for (let i = 0; i < 30; i++) {
      const rand = mulberry32(SEED * 13 + i);
      const game = randomGame(rand, 16, 30, 99, 1 + Math.floor(rand() * 8));
      for (let step = 0; step < 3; step++) {
        for (const totalMines of [null, 99]) {
          const result = solve(encode(game.board, { totalMines }));
          deductions += result.mines.length + result.safe.length;
          const wrong = [
            ...result.mines.filter((name) => !isMine(game, name)),
            ...result.safe.filter((name) => isMine(game, name)),
          ];
          if (result.status !== 'ok' || wrong.length > 0) {
            failures.push(
              `board ${i} step ${step} total=${totalMines}: ${result.status} wrong ${wrong}\n` + show(game.board),
            );
          }
        }
        for (const name of solve(encode(game.board)).safe) open(game.mine, game.board, ...parseCellName(name));
      }
    }
    expect(failures.slice(0, 3)).toEqual([]);
    expect(deductions).toBeGreaterThan(100);
  });
});

describe('MiniSat aborting', () => {
  test('what it prints stays off stdout, the counting engine answers, and the next call has a fresh MiniSat', () => {
    const game = randomGame(mulberry32(SEED * 17), 16, 30, 99, 4);
    const problem = encode(game.board, { totalMines: 99 });
    const expected = solve(problem);
    expect(expected.mines.length + expected.safe.length).toBeGreaterThan(0);
    const log = jest.spyOn(console, 'log');
    const { solveAssuming } = MiniSat.prototype;
    const aborted = new Set<MiniSat>();
    try {
      // MiniSat's own abort, as when its heap is full: it prints the message twice (console.log), then throws
      MiniSat.prototype.solveAssuming = function (this: MiniSat) {
        aborted.add(this);
        return this.native.abort('Cannot enlarge memory arrays (a test)');
      };
      expect(solve(problem)).toEqual(expected);
      expect(solve(problem, { engine: 'count' })).toEqual(expected);
      expect(() => solve(problem, { engine: 'sat' })).toThrow();
      expect(aborted.size).toBe(2);
    } finally {
      MiniSat.prototype.solveAssuming = solveAssuming;
    }
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
    const seen: MiniSat[] = [];
    const spy = jest.spyOn(MiniSat.prototype, 'solveAssuming').mockImplementation(function (
      this: MiniSat,
      variable?: number,
    ) {
      seen.push(this);
      return solveAssuming.call(this, variable as number);
    });
    expect(solve(problem, { engine: 'sat' })).toEqual(expected);
    spy.mockRestore();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((sat) => aborted.has(sat))).toBe(false);
  });
});

function isMine(game: Game, name: string): boolean {
  const [r, c] = parseCellName(name);
  return game.mine[r][c];
}

describe('inconsistent boards', () => {
  const inconsistent = (text: string, options: EncodeOptions = {}) =>
    expect(deduce(text, options)).toEqual<Deductions>({ status: 'inconsistent', mines: [], safe: [] });

  test('a count higher than its hidden neighbours', () => inconsistent('2.\n11\n'));
  test('a count lower than its trusted flags', () => {
    inconsistent('F1F\n...\n', { trustFlags: true });
    expect(deduce('F1F\n...\n').status).toBe('ok');
  });
  test('a fully surrounded count that does not match', () => inconsistent('000\n010\n000\n'));
  test('two counts that disagree', () => inconsistent('.1.\n000\n'));
  test('a total that cannot be met', () => {
    inconsistent('# mines=0\n1.\n..\n');
    inconsistent('1.\n..\n', { totalMines: 4 });
    inconsistent('1.\n..\n', { totalMines: 3 });
    expect(deduce('1..\n...\n', { totalMines: 1 })).toEqual({ status: 'ok', mines: [], safe: ['r0c2', 'r1c2'] });
    expect(deduce('1..\n...\n', { totalMines: 3 })).toEqual({ status: 'ok', mines: ['r0c2', 'r1c2'], safe: [] });
  });
  test('an impossible constraint in a problem', () => {
    const status = (constraint: Constraint) => solve({ unknowns: ['r0c0'], constraints: [constraint] }).status;
    expect(status({ cells: [], count: 1, source: 'r5c5' })).toBe('inconsistent');
    expect(status({ cells: ['r0c0'], count: -1, source: 'r5c5' })).toBe('inconsistent');
    expect(status({ cells: ['r0c0'], count: 0, source: 'r5c5' })).toBe('ok');
  });
});

describe('encode', () => {
  test('witness constraints, known mines and known safe cells', () => {
    const board = parseBoard('# mines=3\n.2*\n!X?\nF11\n');
    expect(encode(board)).toEqual<Problem>({
      unknowns: ['r0c0', 'r1c2', 'r2c0'],
      constraints: [
        { cells: ['r0c0', 'r1c2'], count: 0, source: 'r0c1' },
        { cells: ['r1c2', 'r2c0'], count: 0, source: 'r2c1' },
        { cells: ['r1c2'], count: 0, source: 'r2c2' },
        { cells: ['r0c0', 'r1c2', 'r2c0'], count: 1, source: 'total' },
      ],
    });
    const trusted = encode(board, { trustFlags: true, totalMines: null });
    expect(trusted.unknowns).toEqual(['r0c0', 'r1c2']);
    expect(trusted.constraints).toContainEqual({ cells: ['r1c2'], count: -1, source: 'r2c1' });
  });
  test('identical constraints are kept once', () => {
    expect(encode(parseBoard('1.\n1.\n')).constraints).toEqual([{ cells: ['r0c1', 'r1c1'], count: 1, source: 'r0c0' }]);
  });
});

describe('board text', () => {
  test('round trip with header, overlays read as hidden', () => {
    const text = '# rows=2 cols=3 mines=2\n.1F\n?*X\n';
    const board = parseBoard(text);
    expect(board).toEqual<Board>({
      rows: 2,
      cols: 3,
      totalMines: 2,
      cells: [
        ['.', '1', 'F'],
        ['?', '*', 'X'],
      ],
    });
    expect(formatBoard(board)).toBe(text);
    const overlay = formatBoard(board, { mines: [[0, 0]], safe: [[1, 0]] });
    expect(overlay).toBe('# rows=2 cols=3 mines=2\nm1F\ns*X\n');
    expect(parseBoard(overlay)).toEqual({
      ...board,
      cells: [
        ['.', '1', 'F'],
        ['.', '*', 'X'],
      ],
    });
    expect(formatBoard(parseBoard('\r\n01!\r\n\r\n.8.\r\n'))).toBe('01!\n.8.\n');
  });
  test('one-line errors', () => {
    const message = (text: string) => {
      try {
        parseBoard(text);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(message('...\n..\n')).toMatch(/^board row 1 has 2 cells, row 0 has 3$/);
    expect(message('..Z\n')).toMatch(/^board row 0 col 2: unknown cell 'Z'$/);
    expect(message('# rows=3\n..\n')).toMatch(/^board header says rows=3 but the board has 1$/);
    expect(message('\n\n')).toBe('board text has no rows');
  });
  test('neighbours and cell names', () => {
    const board = parseBoard('...\n...\n');
    expect(neighbours(board, 0, 0)).toEqual<Coord[]>([
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    expect(neighbours(board, 1, 1)).toHaveLength(5);
    expect(parseCellName(cellName(12, 29))).toEqual([12, 29]);
    expect(() => parseCellName('x1')).toThrow("not a cell name: 'x1'");
  });
});

describe('the seed position (mine01)', () => {
  const dir = path.resolve(__dirname, '../../shared/seed-expectations');
  const files = ['mine01.board.txt', 'mine01.solved.txt'].map((name) => path.join(dir, name));
  const present = files.every((file) => fs.existsSync(file));
  const run = present || process.env.CI === 'true' ? test : test.skip;

  run('without the total, the certain cells are exactly the solved overlay (60 mines, 10 safe)', () => {
    if (!present) throw new Error(`seed expectations missing: ${files.join(', ')}`);
    const board = parseBoard(fs.readFileSync(files[0], 'utf8'));
    const solvedText = fs.readFileSync(files[1], 'utf8');
    const overlay = (mark: string) =>
      solvedText
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .flatMap((line, r) => [...line].flatMap((ch, c) => (ch === mark ? [cellName(r, c)] : [])));
    const result = solve(encode(board, { totalMines: null }));
    expect(result).toEqual({ status: 'ok', mines: overlay('m'), safe: overlay('s') });
    expect([result.mines.length, result.safe.length]).toEqual([60, 10]);
    const coords = (names: string[]) => names.map(parseCellName);
    expect(formatBoard(board, { mines: coords(result.mines), safe: coords(result.safe) })).toBe(solvedText);
  });
});
