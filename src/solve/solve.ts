// Finds every deduction: an unknown is a certain mine (safe) exactly when assuming it safe (a mine) is UNSAT.
// The solver knows no geometry, only constraints; its SAT solver is logic-solver's MiniSat (minisat.ts).
import { debuglog } from 'node:util';
import type { Deductions, Problem } from '../common/types';
import { consistent, inRowColOrder, type Count, count, deduce, deducePartial, LIMITS, withFixed } from './certain';
import { reduce, type Shape, shapeOf } from './space';
import { MiniSat } from './minisat';
import { atLeast, atMost, type Clauses, requireExactly, sumBits } from './cardinality';
import { now } from '../common/runtime';

const trace = debuglog('mine-assist');

export interface SolveOptions {
  /**
   * 'auto' (default): propagation; the exact dynamic programme's (certain.ts) certain cells, each proven by
   * SAT (satConfirms), else the SAT backbone on what is left; a board too large for SAT in bounded time goes
   * to the dynamic programme alone, and past its limits to partial proofs.
   * 'sat': the SAT backbone alone, no limits. 'count': the dynamic programme alone (a cross-check).
   */
  engine?: 'auto' | 'sat' | 'count';
  /** Work limits of the dynamic programme (certain.ts LIMITS by default). */
  limits?: typeof LIMITS;
  /** The dynamic programme's work on this problem under these limits, when the caller has it (certain.ts `count`). */
  counted?: Count;
}

const inconsistent = (): Deductions => ({ status: 'inconsistent', mines: [], safe: [] });

/**
 * A new MiniSat is costly (a fresh 64 MB heap, and GC pressure), more than solving an expert board, so one
 * is reused. Each call's clauses carry `-active`; the call assumes `active` and at its end retires it (makes it
 * false for good), which satisfies all of them. Its other variables are used again by later calls: every clause
 * that mentions them, learnt ones included, holds by a retired variable. Retired variables still cost each
 * later solve a little (MiniSat rebuilds its order of variables when one is retired), so a fresh MiniSat starts
 * past VARIABLE_BUDGET.
 */
const VARIABLE_BUDGET = 10_000;
interface Session {
  sat: MiniSat;
  /** Variables of earlier calls, free again. */
  reusable: number[];
}
let session: Session | undefined;

/**
 * The clauses of one call: everything it requires holds only while `active` is assumed. A class rather than
 * closures per call, whose optimised code V8 would drop at nearly every full collection of a batch.
 */
class Call implements Clauses {
  readonly sat: MiniSat;
  readonly yes: number;
  readonly active: number;
  private readonly reusable: number[];
  private used = 0;
  private readonly retiring: number[] = [];
  private readonly cells = new Map<string, number>();

  constructor(current: Session) {
    this.sat = current.sat;
    this.yes = current.sat.yes;
    this.reusable = current.reusable;
    this.active = this.once();
  }

  need(...clause: number[]): void {
    clause.push(-this.active);
    this.sat.addClause(clause);
  }

  /** A variable for this call's clauses. */
  fresh(): number {
    if (this.used === this.reusable.length) this.reusable.push(this.sat.newVariable());
    return this.reusable[this.used++];
  }

  /** A variable used once, in clauses that hold when it is false: retired at the call's end. */
  once(): number {
    const variable = this.sat.newVariable();
    this.retiring.push(variable);
    return variable;
  }

  variableOf(cell: string): number {
    let variable = this.cells.get(cell);
    if (variable === undefined) this.cells.set(cell, (variable = this.fresh()));
    return variable;
  }

  /** A model where `variable` holds, with this call's clauses (`variable` must imply `active`). */
  solveAssuming(variable = this.active): boolean {
    return this.sat.solveAssuming(variable);
  }

  end(): void {
    for (const variable of this.retiring) this.sat.retire(variable);
  }
}

function startCall(): Call {
  if (!session || session.sat.variables > VARIABLE_BUDGET) session = newSession();
  return new Call(session);
}

const newSession = (): Session => ({ sat: new MiniSat(), reusable: [] });

/** One thing to decide: a frontier cell, or all outside cells at once. */
interface Subject {
  cells: string[];
  /** Literals that hold when `cells` hold a mine / a safe cell. */
  mine: number;
  safe: number;
  canBeMine(model: Model): boolean;
  canBeSafe(model: Model): boolean;
  seenMine: boolean;
  seenSafe: boolean;
  certain?: 'mine' | 'safe';
}

interface Model {
  /** Indexed like Shape.frontier. */
  mines: boolean[];
  frontierMines: number;
}

/**
 * The SAT backbone gets the problem without the cells propagation fixes, and at most SAT_UNKNOWNS unknowns
 * (SAT_TOTAL frontier cells under a total: its adder is slow to build and large) and SAT_MS milliseconds;
 * it also stops if MiniSat runs out of its fixed memory. Past that the dynamic programme decides.
 */
const SAT_UNKNOWNS = 8000;
const SAT_TOTAL = 800;
const SAT_MS = 1500;

class OutOfTime extends Error {}

export function solve(problem: Problem, options: SolveOptions = {}): Deductions {
  return minisatQuiet(() => solveWith(problem, options));
}

/**
 * logic-solver's MiniSat says what it has to say with console.log: an abort (its fixed 64 MB heap full) would
 * print two lines into the middle of --json's output. While it runs they go to the trace; a session that threw
 * is not used again.
 */
function minisatQuiet<T>(run: () => T): T {
  const log = console.log;
  console.log = (...said: unknown[]) => trace('solve: MiniSat said %s', said.join(' '));
  try {
    return run();
  } catch (err) {
    session = undefined;
    throw err;
  } finally {
    console.log = log;
  }
}

function solveWith(problem: Problem, options: SolveOptions): Deductions {
  if (options.engine === 'sat') return satBackbone(problem, Infinity);
  const counting = options.counted ?? count(problem, options.limits);
  const counted = () => deduce(problem, options.limits, counting) ?? deducePartial(problem, options.limits);
  if (options.engine === 'count') return counted();
  if (counting.space === null) return inconsistent();
  const { fixed } = counting.space;
  const reduced = reduce(problem, fixed);
  const shape = shapeOf(reduced);
  if (shape === null) return inconsistent();
  const unknowns = shape.frontier.length + shape.outside.length;
  if (unknowns > SAT_UNKNOWNS || (shape.total !== null && shape.frontier.length > SAT_TOTAL)) {
    trace('solve: %d unknowns, too large for the SAT backbone: dynamic programme', unknowns);
    return counted();
  }
  try {
    const claimed = deduce(problem, options.limits, counting);
    if (claimed && satConfirms(reduced, claimed, shape)) return claimed;
    if (claimed) trace('solve: SAT does not confirm the counting engine: backbone');
    return withFixed(satBackbone(reduced, now() + SAT_MS), fixed);
  } catch (err) {
    trace('solve: SAT backbone gave up: %s', err instanceof OutOfTime ? 'time limit' : String(err));
    session = undefined;
    return counted();
  }
}

/**
 * Whether some layout meets every count: the dynamic programme's answer, or `solve`'s when that is too costly
 * for it. Exact either way, and a fraction of `solve`, which finds every certain cell besides.
 */
export function satisfiable(problem: Problem): boolean {
  return consistent(problem) ?? solve(problem).status === 'ok';
}

/**
 * Checks the counting engine's answer with complete SAT calls: the counts must be satisfiable (or not, as it
 * says), and assuming that any one of its certain cells takes the other value must be UNSAT — one call for
 * all of them. Every cell it leaves uncertain it has shown a layout for each way, so nothing is missed.
 */
export function satConfirms(problem: Problem, claimed: Deductions, shape = shapeOf(problem)): boolean {
  if (shape === null) return claimed.status === 'inconsistent';
  return (
    (shape.total !== null ? confirmsWithoutTotal(shape, shape.total, claimed) : null) ?? confirmsWith(shape, claimed)
  );
}

/**
 * The same check without the total, whose adder is most of its cost (and most of the solver's JavaScript for a
 * batch's workers to compile): what is UNSAT under fewer constraints is UNSAT under all of them, and a model
 * of the counts whose frontier leaves the outside cells a number of mines they can hold is a layout that meets
 * the total too. Null when that does not settle it (a claim that needs the total, a claim about the outside
 * cells, a model that misses the total): the check with the total decides.
 */
function confirmsWithoutTotal(shape: Shape, total: number, claimed: Deductions): boolean | null {
  const local: Shape = { ...shape, total: null };
  const call = startCall();
  try {
    const subjects = buildSubjects(call, local) as Subject[];
    if (!call.solveAssuming()) return claimed.status === 'inconsistent';
    const frontierMines = subjects.filter((s) => call.sat.value(s.mine)).length;
    if (total - frontierMines < 0 || total - frontierMines > shape.outside.length) return null;
    if (claimed.status !== 'ok') return false;
    const outside = new Set(shape.outside);
    if ([...claimed.mines, ...claimed.safe].some((cell) => outside.has(cell))) return null;
    return refutesOpposite(call, subjects, claimed) || null;
  } finally {
    call.end();
  }
}

function confirmsWith(shape: Shape, claimed: Deductions): boolean {
  const call = startCall();
  try {
    const subjects = buildSubjects(call, shape);
    if (subjects === null || !call.solveAssuming()) return claimed.status === 'inconsistent';
    if (claimed.status !== 'ok') return false;
    return refutesOpposite(call, subjects, claimed);
  } finally {
    call.end();
  }
}

/** Whether no model gives any claimed subject the other value (one SAT call for all of them). */
function refutesOpposite(call: Call, subjects: Subject[], claimed: Deductions): boolean {
  const [mines, safe] = [new Set(claimed.mines), new Set(claimed.safe)];
  const opposite = subjects.flatMap((s) => (mines.has(s.cells[0]) ? [s.safe] : safe.has(s.cells[0]) ? [s.mine] : []));
  if (opposite.length === 0) return true;
  return !call.solveAssuming(probeFor(call, opposite));
}

/** A new variable that, assumed, asks for a model of the call's clauses where one of `literals` holds. */
function probeFor(call: Call, literals: number[]): number {
  const probe = call.once();
  call.sat.addClause([-probe, call.active]);
  call.sat.addClause([-probe, ...literals]);
  return probe;
}

function satBackbone(problem: Problem, deadline: number): Deductions {
  const shape = shapeOf(problem);
  if (shape === null) return inconsistent();
  const call = startCall();
  try {
    const subjects = buildSubjects(call, shape);
    if (subjects === null || !probeAll(call, shape, subjects, deadline)) return inconsistent();
    const pick = (kind: 'mine' | 'safe') =>
      inRowColOrder(subjects.filter((s) => s.certain === kind).flatMap((s) => s.cells));
    return { status: 'ok', mines: pick('mine'), safe: pick('safe') };
  } finally {
    call.end();
  }
}

/** Requires every constraint; null when the total cannot be met. */
function buildSubjects(call: Call, shape: Shape): Subject[] | null {
  for (const { cells, count } of shape.local) {
    requireExactly(
      call,
      cells.map((cell) => call.variableOf(cell)),
      count,
    );
  }
  const variables = shape.frontier.map((cell) => call.variableOf(cell));
  const subjects: Subject[] = shape.frontier.map((cell, index) => ({
    cells: [cell],
    mine: variables[index],
    safe: -variables[index],
    canBeMine: (model) => model.mines[index],
    canBeSafe: (model) => !model.mines[index],
    seenMine: false,
    seenSafe: false,
  }));
  if (shape.total === null) return subjects;
  const outside = requireTotal(call, variables, shape.total, shape.outside);
  return outside === null ? null : [...subjects, ...outside];
}

/** The outside cells must hold total − (frontier mines); they become one subject. Null if impossible. */
function requireTotal(call: Call, variables: number[], total: number, outside: string[]): Subject[] | null {
  const room = outside.length;
  if (total - room > variables.length) return null;
  let sum: number[] | undefined;
  const bits = () => (sum ??= sumBits(call, variables));
  const most = (n: number) => (n >= variables.length ? call.yes : n < 0 ? -call.yes : atMost(call, bits(), n));
  const least = (n: number) => (n <= 0 ? call.yes : atLeast(call, bits(), n));
  call.need(least(total - room));
  call.need(most(total));
  if (room === 0) return [];
  return [
    {
      cells: outside,
      mine: most(total - 1),
      safe: least(total - room + 1),
      canBeMine: (model) => total - model.frontierMines >= 1,
      canBeSafe: (model) => total - model.frontierMines <= room - 1,
      seenMine: false,
      seenSafe: false,
    },
  ];
}

/**
 * Backbone probing: each model shows, for every subject, which values are possible. One complete SAT call
 * asks for a model where some still-undecided subject takes its unseen value: SAT sees at least one more,
 * UNSAT proves every remaining subject certain at once. False if the problem itself is UNSAT.
 */
function probeAll(call: Call, shape: Shape, subjects: Subject[], deadline: number): boolean {
  if (!call.solveAssuming()) return false;
  observe(call, shape, subjects);
  const undecided = () => subjects.filter((s) => !(s.seenMine && s.seenSafe));
  for (let open = undecided(); open.length > 0;) {
    if (now() > deadline) throw new OutOfTime();
    if (
      !call.solveAssuming(
        probeFor(
          call,
          open.map((s) => (s.seenMine ? s.safe : s.mine)),
        ),
      )
    ) {
      for (const subject of open) subject.certain = subject.seenMine ? 'mine' : 'safe';
      return true;
    }
    observe(call, shape, subjects);
    const before = open.length;
    open = undecided();
    if (open.length === before) throw new Error('solve: a model decided nothing (internal error)');
  }
  return true;
}

function observe(call: Call, shape: Shape, subjects: Subject[]): void {
  const mines = shape.frontier.map((cell) => call.sat.value(call.variableOf(cell)));
  const model: Model = { mines, frontierMines: mines.filter(Boolean).length };
  for (const subject of subjects) {
    subject.seenMine ||= subject.canBeMine(model);
    subject.seenSafe ||= subject.canBeSafe(model);
  }
}

/**
 * Makes the solver ready (MiniSat loaded and its heap set up) ahead of the first `solve`, for a caller with time on
 * its hands (waiting for a screenshot to decode).
 */
export function warmSolver(): void {
  minisatQuiet(() => (session ??= newSession()));
}
