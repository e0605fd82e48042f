// A batch sets V8's flags while the process runs (src/speed/tuning.ts), and this thread's optimising compiles run on
// V8's own threads meanwhile: a flag such a compile reads more than once, changed between its reads, aborts the
// process.

const set: string[] = [];
jest.mock('node:v8', () => ({
  ...jest.requireActual('node:v8'),
  setFlagsFromString: (flag: string) => set.push(flag),
}));

/**
 * Flags a TurboFan job reads more than once, and checks that they agree: V8 11's JSInliner checks again, as it
 * inlines a call, that the candidate the heuristic picked is still under the per-function limit, and aborts if not.
 */
const READ_TWICE_BY_A_COMPILE = ['--max-inlined-bytecode-size='];

test.each([true, false])('a batch (in workers: %s) changes no flag an optimising compile reads twice', (inWorkers) => {
  set.length = 0;
  jest.isolateModules(() =>
    (jest.requireActual('../src/speed/tuning') as typeof import('../src/speed/tuning')).tuneForBatch(inWorkers),
  );
  expect(set.length).toBeGreaterThan(0);
  for (const flag of set) for (const racy of READ_TWICE_BY_A_COMPILE) expect(flag.startsWith(racy)).toBe(false);
});
