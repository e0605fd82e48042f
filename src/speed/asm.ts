import { setFlagsFromString } from 'node:v8';

/**
 * logic-solver's MiniSat is asm.js: validating it as asm.js costs ~90 ms at load, as plain JIT-compiled
 * JavaScript it solves about as fast here (mine01 deductions ~1 ms slower warm). No other asm.js runs here.
 */
export function plainAsm(): void {
  setFlagsFromString('--no-validate-asm');
}
