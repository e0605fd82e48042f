import { execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FIXTURES, tempDir } from './helpers';
import sharp from 'sharp';
import { decode } from '../src/image/decode';
import { expandInputs, runBatch, type Job } from '../src/analyze/batch';
import { runInWorkers } from '../src/analyze/workers';

// Batches on worker threads run the built CLI (npm test builds dist/ first), as a user does.
const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../bin/mine-assist.js');

describe('--jobs: a batch on worker threads', () => {
  const tmp = tempDir();
  afterAll(tmp.cleanup);

  test('--jobs 2 gives the same results, in input order, as --jobs 1', async () => {
    const dir = path.join(tmp.dir, 'in');
    mkdirSync(dir);
    const games = [
      'xdemineur/s2-01',
      'xbomb/s2-02',
      'kmines/s2-01',
      'xdemineur/s2-05',
      'gnome-mines/s2-05',
      'ace-minesweeper/s2-01',
    ];
    games.forEach((g, i) =>
      copyFileSync(path.join(FIXTURES, `${g}.png`), path.join(dir, `${i}-${g.split('/')[0]}.png`)),
    );
    const results = async (jobs: number) => {
      const out = path.join(tmp.dir, `out${jobs}`);
      const { stdout } = await run(process.execPath, [BIN, dir, '--json', '--jobs', String(jobs), '-o', out], {
        maxBuffer: 1 << 26,
      });
      const json = JSON.parse(stdout) as {
        file: string;
        status: string;
        board: string[];
        mines: number[][];
        safe: number[][];
      }[];
      return {
        json: json.map(({ file, status, board, mines, safe }) => ({ file, status, board, mines, safe })),
        written: readdirSync(out).sort(),
      };
    };
    const [one, two] = [await results(1), await results(2)];
    expect(two.json).toEqual(one.json);
    expect(one.json.map((r) => path.basename(r.file))).toEqual(readdirSync(dir).sort());
    expect(one.json.every((r) => r.status === 'ok')).toBe(true);
    expect(two.written).toEqual(
      [
        ...readdirSync(dir)
          .sort()
          .map((f) => f.replace('.png', '.annotated.png')),
        'summary.json',
      ].sort(),
    );
    const summary = JSON.parse(readFileSync(path.join(tmp.dir, 'out2', 'summary.json'), 'utf8'));
    expect(summary.totals).toEqual({ files: 6, ok: 6, inconsistent: 0, error: 0 });
  }, 120_000);

  test("workers get OpenCV's outlines from the main thread, which loads it once: results as one thread's", async () => {
    // a skin-free reading leaves cells unreadable, so OpenCV's outlines are tried too
    const files = ['xdemineur/s2-01', 'xbomb/s2-02'].map((g) => path.join(FIXTURES, `${g}.png`));
    const batch = async (jobs: number) =>
      JSON.parse(
        (
          await run(
            process.execPath,
            [
              '-e',
              `
      const cli = require(${JSON.stringify(path.resolve(__dirname, '../dist/cli/cli.js'))});
      const write = process.stdout.write.bind(process.stdout);
      let json = '';
      process.stdout.write = (chunk) => ((json += chunk), true);
      cli.main(` +
                JSON.stringify([
                  ...files,
                  '--skin',
                  'none',
                  '--json',
                  '--jobs',
                  String(jobs),
                  '-o',
                  path.join(tmp.dir, `cv${jobs}`),
                ]) +
                `).then(() => {
        write(JSON.stringify({ results: JSON.parse(json), openCvHere: ` +
                `Object.keys(require.cache).some((k) => k.includes('opencv-js')) }));
      });
    `,
            ],
            { maxBuffer: 1 << 26 },
          )
        ).stdout,
      ) as { results: { output: string; unreadable: unknown[] }[]; openCvHere: boolean };
    const [one, two] = [await batch(1), await batch(2)];
    expect(one.openCvHere).toBe(true);
    expect(two.openCvHere).toBe(true);
    const strip = (r: { output: string }) => ({ ...r, output: path.basename(r.output) });
    expect(two.results.map(strip)).toEqual(one.results.map(strip));
    expect(two.results.some((r) => r.unreadable.length > 0)).toBe(true);
  }, 120_000);

  test("a batch's main thread loads no sharp (its workers do); one thread does; tiles kept: none does", async () => {
    const hook = path.join(tmp.dir, 'dlopen-hook.js');
    writeFileSync(
      hook,
      `
      const { isMainThread } = require('node:worker_threads');
      const dlopen = process.dlopen;
      process.dlopen = function (module, file, ...rest) {
        process.stderr.write('dlopen ' + (isMainThread ? 'main ' : 'worker ') + ` +
        `require('node:path').basename(file) + '\\n');
        return dlopen.call(this, module, file, ...rest);
      };`,
    );
    const dir = path.join(tmp.dir, 'lazy');
    mkdirSync(dir);
    // four files: each of the two workers is sent two at once
    for (const g of ['xdemineur/s2-01', 'xbomb/s2-02', 'kmines/s2-01', 'gnome-mines/s2-05'])
      copyFileSync(path.join(FIXTURES, `${g}.png`), path.join(dir, `${g.split('/')[0]}.png`));
    const loads = async (jobs: number, cache: string) => {
      const out = path.join(tmp.dir, `lazy${jobs}-${path.basename(cache)}`);
      const { stderr } = await run(process.execPath, ['-r', hook, BIN, dir, '--jobs', String(jobs), '-o', out], {
        env: { ...process.env, MINE_ASSIST_CACHE: cache },
      });
      return {
        sharp: stderr
          .split('\n')
          .filter((line) => /^dlopen .*sharp/.test(line))
          .map((line) => line.split(' ')[1]),
        out,
      };
    };
    expect((await loads(2, 'off')).sharp).toEqual(['worker', 'worker']);
    const drawn = await loads(1, 'off');
    expect(drawn.sharp).toEqual(['main']);
    // the tiles drawn by a first batch are kept on disk (src/output/tilecache.ts): the next draws the same PNGs
    // without sharp
    const cache = path.join(tmp.dir, 'tiles');
    expect((await loads(2, cache)).sharp).toEqual(['worker', 'worker']);
    for (const jobs of [2, 1]) {
      const again = await loads(jobs, cache);
      expect(again.sharp).toEqual([]);
      for (const name of readdirSync(dir)) {
        const annotated = name.replace('.png', '.annotated.png');
        expect(
          readFileSync(path.join(again.out, annotated)).equals(readFileSync(path.join(drawn.out, annotated))),
        ).toBe(true);
      }
    }
  }, 90_000);

  test('an annotated PNG is the same alone and after another in one process, heat map included', async () => {
    // gnome-mines s2-01 leaves the heat map's key kept from its sheet, drawn at another place on it than s3-01's
    // own sheet would draw it: a gradient comes out a level apart there, unless drawn at the sheet's left edge
    const [before, shot] = ['gnome-mines/s2-01', 'gnome-mines/s3-01'].map((g) => path.join(FIXTURES, `${g}.png`));
    await run(process.execPath, [BIN, shot, '--probabilities', '-o', path.join(tmp.dir, 'alone.png')]);
    await run(process.execPath, [
      BIN,
      before,
      shot,
      '--probabilities',
      '--jobs',
      '1',
      '-o',
      path.join(tmp.dir, 'after'),
    ]);
    expect(
      readFileSync(path.join(tmp.dir, 'after', 's3-01.annotated.png')).equals(
        readFileSync(path.join(tmp.dir, 'alone.png')),
      ),
    ).toBe(true);
  }, 60_000);

  test('results carry no cell readings (the main thread keeps all results to the end); all else is there', async () => {
    const [result] = await runBatch([{ file: path.join(FIXTURES, 'xdemineur/s2-03.png'), name: 's2-03.png' }], {
      output: path.join(tmp.dir, 'one.png'),
    });
    expect(result.analysis.status).toBe('ok');
    expect(result.analysis.readings).toBeNull();
    expect(result.analysis.board?.rows).toBe(16);
    expect(result.analysis.deductions?.mines.length).toBeGreaterThan(0);
    expect(result.output).toBe(path.join(tmp.dir, 'one.png'));
  }, 60_000);

  test("the CLI sizes libuv's pool before sharp starts it: a thread per core, 2 to 4; a size in env is kept", () => {
    // `blocked` pool threads wait on FIFOs no one writes to; a stat then finishes only if a thread is left
    const fifos = [1, 2, 3, 4].map((i) => path.join(tmp.dir, `fifo${i}`));
    execFileSync('mkfifo', fifos);
    const { UV_THREADPOOL_SIZE: _, ...withoutPoolSize } = process.env;
    const probe = (blocked: number, env: NodeJS.ProcessEnv = {}) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '-e',
            `
      require(${JSON.stringify(path.resolve(__dirname, '../dist/cli/cli.js'))});
      const fs = require('fs');
      for (const f of ${JSON.stringify(fifos)}.slice(0, ${blocked})) fs.open(f, 'r', () => {});
      let done = false;
      fs.stat('/', () => (done = true));
      setTimeout(() => {
        process.stdout.write(JSON.stringify({ size: process.env.UV_THREADPOOL_SIZE, free: done }));
        // a writer lets each waiting open finish: node joins its pool's threads on the way out
        for (const f of ${JSON.stringify(fifos)}) ` +
              `try { fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {}
      }, 500);
    `,
          ],
          { env: { ...withoutPoolSize, ...env }, timeout: 10_000 },
        ).toString(),
      );
    const expected = Math.min(4, Math.max(2, availableParallelism()));
    expect(probe(expected - 1)).toEqual({ size: String(expected), free: true });
    expect(probe(expected)).toEqual({ size: String(expected), free: false });
    expect(probe(3, { UV_THREADPOOL_SIZE: '3' })).toEqual({ size: '3', free: false });
  }, 30_000);

  test('a worker that stops or fails mid-file: its file fails, the rest go to a new worker; batch ends', async () => {
    // a stand-in for src/analyze/worker.ts: exits (no 'error' event) on one file, throws on others, else reports it
    // analysed
    const script = path.join(tmp.dir, 'crashing-worker.js');
    writeFileSync(
      script,
      `
      const { parentPort } = require('node:worker_threads');
      parentPort.on('message', ({ index, input }) => {
        if (input.name === 'exit.png') process.exit(7);
        if (input.name.startsWith('throw')) throw new Error('boom');
        parentPort.postMessage({ index, result: ` +
        `{ analysis: { file: input.file, status: 'ok' }, output: null, debug: null, ms: 1 } });
      });`,
    );
    const names = [
      'a.png',
      'exit.png',
      'b.png',
      'throw-1.png',
      'c.png',
      'throw-2.png',
      'd.png',
      'throw-3.png',
      'e.png',
      'f.png',
    ];
    const inputs = names.map((name) => ({ file: path.join(tmp.dir, name), name }));
    // node sends a worker's error on another port than its results: the result of the file before can come after
    // the error, and a pool that settles the failure at once feeds files to the dead worker and hangs; the order
    // varies from round to round, hence many rounds
    for (let round = 0; round < 40; round++) {
      const reported: string[] = [];
      const results = await runInWorkers(
        inputs,
        2,
        {} as Job,
        (r) => reported.push(path.basename(r.analysis.file)),
        script,
      );
      expect(reported).toEqual(names);
      expect(results.map((r) => r.analysis.status)).toEqual(
        names.map((name) => (name === 'exit.png' || name.startsWith('throw') ? 'error' : 'ok')),
      );
      expect(results.map((r) => r.analysis.error ?? r.analysis.status)).toEqual(
        names.map((name) =>
          name === 'exit.png'
            ? 'worker stopped (exit code 7)'
            : name.startsWith('throw')
              ? 'worker failed: boom'
              : 'ok',
        ),
      );
    }
  }, 60_000);

  test.each([
    ['Ctrl-C', 'SIGINT', 130, 'interrupted'],
    ['kill', 'SIGTERM', 143, 'terminated'],
  ] as const)(
    '%s (%s) stops a batch: exit %d; outputs stay whole, summary.json lists every file; no temp file is left',
    async (_, signal, exitCode, word) => {
      // the outputs written stay whole and summary.json lists them, the rest as not finished; no temp file is left,
      // not even one a worker wrote and had not renamed: in each worker, the second temp file written is held there,
      // before its rename, until the worker is stopped
      const hook = path.join(tmp.dir, 'held-write-hook.js');
      writeFileSync(
        hook,
        `
      const fs = require('node:fs');
      if (!require('node:worker_threads').isMainThread) {
        const write = fs.writeFileSync;
        let temps = 0;
        fs.writeFileSync = function (file, ...rest) {
          write.call(this, file, ...rest);
          if (!String(file).endsWith('.tmp') || ++temps !== 2) return;
          process.stderr.write('held ' + require('node:path').basename(String(file)) + '\\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);
        };
      }`,
      );
      const dir = path.join(tmp.dir, `interrupted-${signal}`);
      mkdirSync(dir);
      const shot = path.join(FIXTURES, 'xdemineur/s2-05.png');
      const names = Array.from({ length: 12 }, (_, i) => `shot${String(i).padStart(2, '0')}.png`);
      for (const name of names) copyFileSync(shot, path.join(dir, name));
      const out = path.join(tmp.dir, `interrupted-${signal}-out`);
      const child = spawn(process.execPath, ['-r', hook, BIN, dir, '--jobs', '2', '-o', out], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const heldBoth = new Promise<void>((resolve) =>
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if ((stderr.match(/^held /gm) ?? []).length === 2) resolve();
        }),
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await heldBoth;
      expect(readdirSync(out).filter((name) => name.endsWith('.tmp'))).toHaveLength(2);
      child.kill(signal);
      expect(await exited).toBe(exitCode);
      expect(stderr).toContain(`mine-assist: ${word}`);
      const left = readdirSync(out);
      expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([]);
      const written = left.filter((name) => name.endsWith('.annotated.png')).sort();
      expect(written).toHaveLength(2);
      for (const name of written) expect((await decode(readFileSync(path.join(out, name)))).width).toBeGreaterThan(0);
      const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
      expect(summary.files.map((f: { file: string }) => path.basename(f.file))).toEqual(names);
      const done = summary.files.filter((f: { status: string }) => f.status === 'ok');
      expect(done.map((f: { output: string }) => path.basename(f.output)).sort()).toEqual(written);
      expect(
        summary.files
          .filter((f: { status: string }) => f.status !== 'ok')
          .every((f: { error: string }) => /interrupted/.test(f.error)),
      ).toBe(true);
      expect(summary.totals).toMatchObject({ files: 12, ok: 2, error: 10 });
      for (const name of names) expect(readFileSync(path.join(dir, name)).equals(readFileSync(shot))).toBe(true);
    },
    60_000,
  );

  // a reader of the output that goes away after one line: every PNG and summary.json is still written
  test('| head -1 going away after a line ends the printing, not the batch: all outputs written, exit 0', async () => {
    const dir = path.join(tmp.dir, 'piped');
    mkdirSync(dir);
    const names = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png', 'f.png'];
    names.forEach((name, i) =>
      copyFileSync(path.join(FIXTURES, `xdemineur/s2-0${(i % 5) + 1}.png`), path.join(dir, name)),
    );
    const out = path.join(tmp.dir, 'piped-out');
    for (const args of [
      ['--jobs', '1'],
      ['--jobs', '2'],
      ['--jobs', '2', '--json'],
    ]) {
      rmSync(out, { recursive: true, force: true });
      const child = spawn(process.execPath, [BIN, dir, '-o', out, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect({
        args,
        code,
        stderr: stderr
          .split('\n')
          .filter((line) => !/^6 files: 6 ok/.test(line))
          .join(''),
      }).toEqual({ args, code: 0, stderr: '' });
      expect(readdirSync(out).sort()).toEqual([
        ...names.map((n) => n.replace('.png', '.annotated.png')),
        'summary.json',
      ]);
    }
  }, 60_000);

  test('- reads standard input: as its file reads, stdin.annotated.png by default, on workers too', async () => {
    const shot = path.join(FIXTURES, 'xdemineur/s2-05.png');
    const cli = (args: string[], input: Buffer, cwd = tmp.dir) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
        let [stdout, stderr] = ['', ''];
        child.stdout.on('data', (c) => (stdout += c));
        child.stderr.on('data', (c) => (stderr += c));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      });
    const fromFile = JSON.parse(
      (await run(process.execPath, [BIN, shot, '--json', '-o', path.join(tmp.dir, 'from-file.png')])).stdout,
    );
    const cwd = path.join(tmp.dir, 'stdin-cwd');
    mkdirSync(cwd);
    const piped = await cli(['-', '--json'], readFileSync(shot), cwd);
    expect(piped.code).toBe(0);
    const json = JSON.parse(piped.stdout);
    expect([json.file, json.output]).toEqual(['-', 'stdin.annotated.png']);
    expect([json.board, json.mines, json.safe]).toEqual([fromFile.board, fromFile.mines, fromFile.safe]);
    expect(
      readFileSync(path.join(cwd, 'stdin.annotated.png')).equals(readFileSync(path.join(tmp.dir, 'from-file.png'))),
    ).toBe(true);
    const out = path.join(tmp.dir, 'stdin-batch');
    const batch = await cli(
      [path.join(FIXTURES, 'xdemineur/s2-03.png'), '-', '--jobs', '2', '-o', out, '--json'],
      readFileSync(shot),
    );
    expect(batch.code).toBe(0);
    expect(JSON.parse(batch.stdout).map((r: { file: string; mines: unknown }) => path.basename(r.file))).toEqual([
      's2-03.png',
      '-',
    ]);
    expect(JSON.parse(batch.stdout)[1].mines).toEqual(fromFile.mines);
    expect(readdirSync(out).sort()).toEqual(['s2-03.annotated.png', 'stdin.annotated.png', 'summary.json']);
    const empty = await cli(['-'], Buffer.alloc(0));
    expect([empty.code, empty.stderr.trim()]).toEqual([3, '-: error: empty file (0 bytes)']);
  }, 60_000);

  test('--jobs past 4 a core starts 4 workers a core, says so once, reads every file as --jobs 1 does', async () => {
    const hook = path.join(tmp.dir, 'worker-hook.js');
    writeFileSync(
      hook,
      `
      const threads = require('node:worker_threads');
      const Worker = threads.Worker;
      threads.Worker = class extends Worker { ` +
        `constructor(...args) { super(...args); process.stderr.write('worker started\\n'); } };`,
    );
    const most = 4 * availableParallelism();
    const dir = path.join(tmp.dir, 'many');
    mkdirSync(dir);
    for (let i = 0; i <= most; i++)
      copyFileSync(path.join(FIXTURES, 'xdemineur/s2-05.png'), path.join(dir, `shot${String(i).padStart(3, '0')}.png`));
    const batch = async (jobs: number) => {
      const { stdout, stderr } = await run(
        process.execPath,
        ['-r', hook, BIN, dir, '--json', '--jobs', String(jobs), '-o', path.join(tmp.dir, `many${jobs}`)],
        { maxBuffer: 1 << 26 },
      );
      const read = JSON.parse(stdout).map(
        (a: { file: string; status: string; board: string; mines: unknown; safe: unknown }) => [
          path.basename(a.file),
          a.status,
          a.board,
          a.mines,
          a.safe,
        ],
      );
      return {
        read,
        started: stderr.split('\n').filter((line) => line === 'worker started').length,
        notes: stderr.split('\n').filter((line) => line.startsWith('mine-assist: --jobs')),
      };
    };
    const capped = await batch(1000);
    expect(capped.started).toBe(most);
    expect(capped.notes).toEqual([
      `mine-assist: --jobs 1000: ${most} workers at most on this machine's ${availableParallelism()} CPU cores`,
    ]);
    const alone = await batch(1);
    expect(alone.started).toBe(0);
    expect(capped.read).toHaveLength(most + 1);
    expect(capped.read.every((r: unknown[]) => r[1] === 'ok')).toBe(true);
    expect(capped.read).toEqual(alone.read);
  }, 120_000);

  test('--jobs 0 is a usage error', async () => {
    await expect(run(process.execPath, [BIN, FIXTURES, '--jobs', '0'])).rejects.toMatchObject({ code: 2 });
  });
});

describe('outputs never overwrite one another', () => {
  const tmp = tempDir();
  afterAll(tmp.cleanup);

  test('a second batch in one process makes its output folders again if they have gone since the first', async () => {
    const inputs = ['s2-03', 's2-05'].map((name) => ({
      file: path.join(FIXTURES, `xdemineur/${name}.png`),
      name: `sub/${name}.png`,
    }));
    const out = path.join(tmp.dir, 'again');
    for (let run = 0; run < 2; run++) {
      rmSync(out, { recursive: true, force: true });
      const results = await runBatch(inputs, { output: out });
      expect(results.map((r) => [r.analysis.status, r.output && path.relative(out, r.output)])).toEqual([
        ['ok', 'sub/s2-03.annotated.png'],
        ['ok', 'sub/s2-05.annotated.png'],
      ]);
    }
  }, 60_000);

  /** The share of pixels an annotated image changed from the screenshot it was made from (marks only: small). */
  const changed = async (input: string, output: string): Promise<number> => {
    const [a, b] = [await decode(input), await decode(output)];
    let differ = 0;
    for (let i = 0; i < a.data.length; i += 4)
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) differ++;
    return differ / (a.width * a.height);
  };

  test('outputs that would share a name (two folders, other case, other format beside): later get -2, -3', async () => {
    const [a, b] = ['a', 'b'].map((d) => path.join(tmp.dir, d));
    mkdirSync(a);
    mkdirSync(b);
    copyFileSync(path.join(FIXTURES, 'xdemineur/s2-03.png'), path.join(a, 'shot.png'));
    copyFileSync(path.join(FIXTURES, 'xbomb/s2-02.png'), path.join(b, 'shot.png'));
    copyFileSync(path.join(FIXTURES, 'xdemineur/s2-01.png'), path.join(b, 'SHOT.png'));
    const out = path.join(tmp.dir, 'out');
    const results = await runBatch(await expandInputs([a, b]), { output: out });
    expect(results.map((r) => path.relative(tmp.dir, r.analysis.file))).toEqual([
      'a/shot.png',
      'b/SHOT.png',
      'b/shot.png',
    ]);
    expect(results.map((r) => r.output && path.relative(out, r.output))).toEqual([
      'shot.annotated.png',
      'SHOT-2.annotated.png',
      'shot-3.annotated.png',
    ]);
    for (const r of results) expect(await changed(r.analysis.file, r.output as string)).toBeLessThan(0.05);

    await sharp(path.join(FIXTURES, 'xbomb/s2-02.png')).webp({ lossless: true }).toFile(path.join(a, 'shot.webp'));
    const beside = await runBatch(await expandInputs([a]), {});
    expect(beside.map((r) => r.output && path.relative(a, r.output))).toEqual([
      'shot.annotated.png',
      'shot-2.annotated.png',
    ]);
    for (const r of beside) expect(await changed(r.analysis.file, r.output as string)).toBeLessThan(0.05);
  }, 120_000);
});
