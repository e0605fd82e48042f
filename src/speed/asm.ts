import { setFlagsFromString } from 'node:v8';

/**
 * logic-solver's MiniSat is asm.js: validating it as asm.js is slow at load, and as plain JIT-compiled JavaScript
 * it solves about as fast. No other asm.js runs here.
 */
export function plainAsm(): void {
  setFlagsFromString('--no-validate-asm');
}
