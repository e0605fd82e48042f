// logic-solver's MiniSat (asm.js), given clauses of variable numbers directly: the only file that touches
// logic-solver. Its formula layer (named variables, formulas turned into clauses, a copy of its formula table in
// every solution) costs more than MiniSat's search on a board's small problems, and more to compile in a worker.
import { plainAsm } from '../speed/asm';

/** The Emscripten module of logic-solver's minisat.js: its C functions and its fixed 64 MB heap. */
interface Native {
  HEAP32: Int32Array;
  HEAP8: Int8Array;
  _createTheSolver(): void;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _addClause(terms: number): number;
  _ensureVar(variable: number): void;
  _solveAssuming(variable: number): number;
  _getSolution(): number;
  _retireVar(variable: number): void;
  abort(what: string): never;
}

let load: (() => Native) | undefined;

function loadNative(): () => Native {
  plainAsm();
  return require('logic-solver/minisat.js') as () => Native;
}

/**
 * One MiniSat: variables are numbers from 1, a literal is a variable or its negation, a clause an array of
 * literals. `yes` is a variable that is always true.
 */
export class MiniSat {
  readonly native: Native;
  readonly yes: number;
  variables = 0;
  private buffer = 0;
  private room = 0;
  private solution = 0;

  constructor() {
    this.native = (load ??= loadNative())();
    this.native._createTheSolver();
    this.yes = this.newVariable();
    this.addClause([this.yes]);
  }

  newVariable(): number {
    return ++this.variables;
  }

  /** Adds a clause; throws if that makes the clauses unsatisfiable outright (callers guard theirs by a variable). */
  addClause(literals: readonly number[]): void {
    if (literals.length >= this.room) {
      if (this.buffer) this.native._free(this.buffer);
      this.room = Math.max(64, 2 * literals.length);
      this.buffer = this.native._malloc(4 * this.room);
    }
    const heap = this.native.HEAP32;
    const at = this.buffer >> 2;
    for (let i = 0; i < literals.length; i++) heap[at + i] = literals[i];
    heap[at + literals.length] = 0;
    // False once the clauses cannot hold under any assumption: every later solve would be UNSAT.
    if (!this.native._addClause(this.buffer)) throw new Error('MiniSat: the clauses cannot hold whatever is assumed');
  }

  /** Whether the clauses have a model in which `variable` is true; `value` then reads that model. */
  solveAssuming(variable: number): boolean {
    this.native._ensureVar(this.variables);
    const found = this.native._solveAssuming(variable) !== 0;
    this.solution = found ? this.native._getSolution() : 0;
    return found;
  }

  /** A literal's value in the last model found. */
  value(literal: number): boolean {
    const variable = literal < 0 ? -literal : literal;
    const isTrue = this.native.HEAP8[this.solution + variable - 1] === 0;
    return literal < 0 ? !isTrue : isTrue;
  }

  /** Makes a variable false for good: clauses that hold when it is false are done with. */
  retire(variable: number): void {
    this.native._retireVar(variable);
  }
}
