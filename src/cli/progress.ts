// The batch progress bar on a terminal (cli-progress): files done, rate and time left. Lines printed while it
// runs go above it. Off a terminal there is no bar; the lines are printed as they are.
type ProgressModule = typeof import('cli-progress');

export interface Progress {
  /** One more file done; its line (if any) is printed above the bar. */
  tick(line?: string): void;
  stop(): void;
}

export function progressBar(total: number, stream: NodeJS.WriteStream): Progress {
  // loaded only for a bar: loading it is slow, and a single screenshot or a batch off a terminal does not need it
  const { MultiBar, Presets } = require('cli-progress') as ProgressModule;
  const bars = new MultiBar(
    {
      stream,
      format: '{bar} {value}/{total} files | {rate}/s | {eta_formatted} left',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 20,
    },
    Presets.shades_classic,
  );
  const bar = bars.create(total, 0, { rate: '0.0' });
  const started = Date.now();
  let done = 0;
  return {
    tick(line) {
      if (line) bars.log(line.endsWith('\n') ? line : `${line}\n`);
      done++;
      bar.update(done, { rate: (done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1) });
      bars.update();
    },
    stop: () => bars.stop(),
  };
}
