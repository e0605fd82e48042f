// The part of logic-solver 2.0.1 (MiniSat in asm.js) that mine-assist uses. The package ships no types.
declare module 'logic-solver' {
  namespace Logic {
    /** A variable name ('r3c7'), a negated one ('-r3c7'), or a variable number. */
    type Term = string | number;
    /** An opaque boolean expression built by the functions below. */
    interface Formula {
      readonly __logicFormula: true;
    }
    type Operand = Term | Formula | Operand[];

    /** An unsigned integer as bits, least significant first. */
    class Bits {
      constructor(formulas: (Formula | Term)[]);
      readonly bits: (Formula | Term)[];
    }

    class Solver {
      constructor();
      require(...args: Operand[]): void;
      forbid(...args: Operand[]): void;
      solve(): Solution | null;
      solveAssuming(assumption: Formula | Term): Solution | null;
      getVarNum(name: string, noCreate?: boolean): number;
    }

    interface Solution {
      getMap(): Record<string, boolean>;
      getTrueVars(): string[];
      evaluate(expression: Formula | Term): boolean;
      evaluate(expression: Bits): number;
      getWeightedSum(formulas: (Formula | Term)[], weights: number | number[]): number;
      ignoreUnknownVariables(): void;
    }

    const TRUE: Term;
    const FALSE: Term;

    function not(operand: Term): Term;
    function not(operand: Formula | Term): Formula | Term;
    function or(...operands: Operand[]): Formula | Term;
    function and(...operands: Operand[]): Formula | Term;
    function xor(...operands: Operand[]): Formula | Term;
    function implies(a: Formula | Term, b: Formula | Term): Formula | Term;
    function equiv(a: Formula | Term, b: Formula | Term): Formula | Term;
    function exactlyOne(...operands: Operand[]): Formula | Term;
    function atMostOne(...operands: Operand[]): Formula | Term;

    function constantBits(wholeNumber: number): Bits;
    function variableBits(baseName: string, nbits: number): Bits;
    function sum(...operands: (Operand | Bits)[]): Bits;
    function weightedSum(formulas: (Formula | Term)[], weights: number | number[]): Bits;
    function equalBits(a: Bits, b: Bits): Formula | Term;
    function lessThan(a: Bits, b: Bits): Formula | Term;
    function lessThanOrEqual(a: Bits, b: Bits): Formula | Term;
    function greaterThan(a: Bits, b: Bits): Formula | Term;
    function greaterThanOrEqual(a: Bits, b: Bits): Formula | Term;

    function disablingAssertions<T>(f: () => T): T;
  }
  export = Logic;
}
