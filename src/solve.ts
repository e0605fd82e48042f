// Finds every deduction: an unknown is a certain mine (safe) exactly when assuming it safe (a mine) is UNSAT.
// The only file that touches logic-solver. The solver knows no geometry, only constraints.
import { debuglog } from 'node:util';
import type { Deductions, Problem } from './types';
import { byRowCol, consistent, type Count, count, deduce, deducePartial, LIMITS, withFixed } from './certain';
import { reduce, type Shape, shapeOf } from './space';
import { plainAsm } from './asm';
import { now } from './runtime';

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

type LogicModule = typeof import('logic-solver');
type Formula = ReturnType<LogicModule['and']>;
type Solver = InstanceType<LogicModule['Solver']>;
type Solution = NonNullable<ReturnType<Solver['solve']>>;

const inconsistent = (): Deductions => ({ status: 'inconsistent', mines: [], safe: [] });

/**
 * A new Solver costs ~4–6 ms (a fresh 64 MB asm.js MiniSat) plus GC pressure, more than solving an expert
 * board, so one is reused. Each call's clauses carry `-active`; the call assumes `active` and finally
 * forbids it, which retires those clauses. What is retired still slows later calls a little (logic-solver
 * copies its formula table into every solution), so a fresh Solver starts past VARIABLE_BUDGET variables.
 */
const VARIABLE_BUDGET = 3000;
interface Session {
  Logic: LogicModule;
  solver: Solver;
  names: number;
}
let session: Session | undefined;

/**
 * The solver of one call: everything it requires holds only while `active` is assumed. A class rather than
 * closures per call, whose optimised code V8 would drop at nearly every full collection of a batch.
 */
class Call {
  readonly Logic: LogicModule;
  readonly solver: Solver;
  readonly active: number;

  constructor(private readonly session: Session) {
    this.Logic = session.Logic;
    this.solver = session.solver;
    this.active = newVariable(session);
  }

  need(...clause: Formula[]): void {
    this.solver.require(this.Logic.or(-this.active, clause));
  }

  /** A new variable of this session. */
  fresh(): number {
    return newVariable(this.session);
  }
}

function startCall(): Call {
  session ??= newSession(loadLogic());
  if (newVariable(session) > VARIABLE_BUDGET) session = newSession(session.Logic);
  return new Call(session);
}

function loadLogic(): LogicModule {
  plainAsm();
  return require('logic-solver') as LogicModule; // eslint-disable-line @typescript-eslint/no-require-imports
}

function newSession(Logic: LogicModule): Session {
  return { Logic, solver: new Logic.Solver(), names: 0 };
}

function newVariable(current: Session): number {
  return current.solver.getVarNum(`#${++current.names}`);
}

/** One thing to decide: a frontier cell, or all outside cells at once. */
interface Subject {
  cells: string[];
  /** Assumptions under which `cells` hold a mine / a safe cell. */
  mine: Formula;
  safe: Formula;
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
  return (shape.total !== null ? confirmsWithoutTotal(shape, shape.total, claimed) : null) ?? confirmsWith(shape, claimed);
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
    return call.Logic.disablingAssertions(() => {
      const subjects = buildSubjects(call, local) as Subject[];
      const model = call.solver.solveAssuming(call.active);
      if (model === null) return claimed.status === 'inconsistent';
      const frontierMines = subjects.filter((s) => model.evaluate(s.mine)).length;
      if (total - frontierMines < 0 || total - frontierMines > shape.outside.length) return null;
      if (claimed.status !== 'ok') return false;
      const outside = new Set(shape.outside);
      if ([...claimed.mines, ...claimed.safe].some((cell) => outside.has(cell))) return null;
      return refutesOpposite(call, subjects, claimed) || null;
    });
  } finally {
    call.solver.forbid(call.active);
  }
}

function confirmsWith(shape: Shape, claimed: Deductions): boolean {
  const call = startCall();
  try {
    return call.Logic.disablingAssertions(() => {
      const subjects = buildSubjects(call, shape);
      if (subjects === null || call.solver.solveAssuming(call.active) === null) return claimed.status === 'inconsistent';
      if (claimed.status !== 'ok') return false;
      return refutesOpposite(call, subjects, claimed);
    });
  } finally {
    call.solver.forbid(call.active);
  }
}

/** Whether no model gives any claimed subject the other value (one SAT call for all of them). */
function refutesOpposite(call: Call, subjects: Subject[], claimed: Deductions): boolean {
  const [mines, safe] = [new Set(claimed.mines), new Set(claimed.safe)];
  const opposite = subjects.flatMap((s) => (mines.has(s.cells[0]) ? [s.safe] : safe.has(s.cells[0]) ? [s.mine] : []));
  if (opposite.length === 0) return true;
  const probe = call.fresh();
  call.solver.require(call.Logic.or(-probe, call.active), call.Logic.or(-probe, opposite));
  const model = call.solver.solveAssuming(probe);
  call.solver.forbid(probe);
  return model === null;
}

function satBackbone(problem: Problem, deadline: number): Deductions {
  const shape = shapeOf(problem);
  if (shape === null) return inconsistent();
  const call = startCall();
  try {
    return call.Logic.disablingAssertions(() => {
      const subjects = buildSubjects(call, shape);
      if (subjects === null || !probeAll(call, shape, subjects, deadline)) return inconsistent();
      const pick = (kind: 'mine' | 'safe') =>
        subjects.filter((s) => s.certain === kind).flatMap((s) => s.cells).sort(byRowCol);
      return { status: 'ok', mines: pick('mine'), safe: pick('safe') };
    });
  } finally {
    call.solver.forbid(call.active);
  }
}

/** Requires every constraint; null when the total cannot be met. */
function buildSubjects(call: Call, shape: Shape): Subject[] | null {
  const { solver } = call;
  for (const { cells, count } of shape.local) {
    requireExactly(call, cells.map((cell) => solver.getVarNum(cell)), count);
  }
  const variables = shape.frontier.map((cell) => solver.getVarNum(cell));
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
  const { Logic } = call;
  const room = outside.length;
  if (total - room > variables.length) return null;
  let sum: ReturnType<LogicModule['sum']> | undefined;
  const bound = (n: number, test: LogicModule['lessThanOrEqual']) =>
    test((sum ??= Logic.sum(variables)), Logic.constantBits(n));
  const atMost = (n: number) =>
    n >= variables.length ? Logic.TRUE : n < 0 ? Logic.FALSE : bound(n, Logic.lessThanOrEqual);
  const atLeast = (n: number) => (n <= 0 ? Logic.TRUE : bound(n, Logic.greaterThanOrEqual));
  call.need(atLeast(total - room));
  call.need(atMost(total));
  if (room === 0) return [];
  return [{
    cells: outside,
    mine: atMost(total - 1),
    safe: atLeast(total - room + 1),
    canBeMine: (model) => total - model.frontierMines >= 1,
    canBeSafe: (model) => total - model.frontierMines <= room - 1,
    seenMine: false,
    seenSafe: false,
  }];
}

/** Exactly `count` of `variables`: plain clauses for a witness (≤ 8 cells), an adder otherwise. */
function requireExactly(call: Call, variables: number[], count: number): void {
  if (variables.length > 8) {
    call.need(call.Logic.equalBits(call.Logic.sum(variables), call.Logic.constantBits(count)));
    return;
  }
  // At most count: no count+1 of them are all mines. At least count: no n−count+1 of them are all safe.
  for (const group of subsets(variables, count + 1)) call.need(...group.map((v) => -v));
  if (count > 0) for (const group of subsets(variables, variables.length - count + 1)) call.need(...group);
}

function subsets(items: number[], size: number, from = 0): number[][] {
  if (size === 0) return [[]];
  const result: number[][] = [];
  for (let i = from; i <= items.length - size; i++) {
    for (const rest of subsets(items, size - 1, i + 1)) result.push([items[i], ...rest]);
  }
  return result;
}

/**
 * Backbone probing: each model shows, for every subject, which values are possible. One complete SAT call
 * asks for a model where some still-undecided subject takes its unseen value: SAT sees at least one more,
 * UNSAT proves every remaining subject certain at once. False if the problem itself is UNSAT.
 */
function probeAll(call: Call, shape: Shape, subjects: Subject[], deadline: number): boolean {
  const { Logic, solver, active } = call;
  const first = solver.solveAssuming(active);
  if (first === null) return false;
  observe(first, call, shape, subjects);
  const undecided = () => subjects.filter((s) => !(s.seenMine && s.seenSafe));
  for (let open = undecided(); open.length > 0; ) {
    if (now() > deadline) throw new OutOfTime();
    const unseen = open.map((s) => (s.seenMine ? s.safe : s.mine));
    const probe = call.fresh();
    solver.require(Logic.or(-probe, active), Logic.or(-probe, unseen));
    const model = solver.solveAssuming(probe);
    solver.forbid(probe);
    if (model === null) {
      for (const subject of open) subject.certain = subject.seenMine ? 'mine' : 'safe';
      return true;
    }
    observe(model, call, shape, subjects);
    const before = open.length;
    open = undecided();
    if (open.length === before) throw new Error('solve: a model decided nothing (internal error)');
  }
  return true;
}

function observe(solution: Solution, call: Call, shape: Shape, subjects: Subject[]): void {
  const mines = shape.frontier.map((cell) => solution.evaluate(call.solver.getVarNum(cell)));
  const model: Model = { mines, frontierMines: mines.filter(Boolean).length };
  for (const subject of subjects) {
    subject.seenMine ||= subject.canBeMine(model);
    subject.seenSafe ||= subject.canBeSafe(model);
  }
}

/**
 * Makes the solver ready (logic-solver loaded, MiniSat set up: ~7 ms of a fresh process) ahead of the first
 * `solve`, for a caller with time on its hands (waiting for a screenshot to decode).
 */
export function warmSolver(): void {
  minisatQuiet(() => (session ??= newSession(loadLogic())));
}
