import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { FIXTURES, runCli, tempDir } from './helpers';

const SHOT = path.join(FIXTURES, 'xdemineur/s2-05.png');

describe('mine-assist CLI', () => {
  const tmp = tempDir();
  afterAll(tmp.cleanup);
  const copy = (name: string): string => {
    const file = path.join(tmp.dir, name);
    copyFileSync(SHOT, file);
    return file;
  };

  test('writes <name>.annotated.png beside the input, the size of the input, and leaves the input alone', async () => {
    const input = copy('shot.png');
    const before = readFileSync(input);
    const { code, stdout } = await runCli([input]);
    expect(code).toBe(0);
    const output = path.join(tmp.dir, 'shot.annotated.png');
    expect(stdout).toContain(output);
    const meta = await sharp(output).metadata();
    const original = await sharp(input).metadata();
    expect([meta.width, meta.height]).toEqual([original.width, original.height]);
    expect(readFileSync(input).equals(before)).toBe(true);
    expect(readFileSync(output).equals(before)).toBe(false);
  });

  test('a run leaves no signal listener behind (main may run many times in one process)', async () => {
    const before = ['SIGINT', 'SIGTERM'].map((s) => process.listenerCount(s));
    for (let i = 0; i < 3; i++) expect((await runCli([copy(`again${i}.png`)])).code).toBe(0);
    expect(['SIGINT', 'SIGTERM'].map((s) => process.listenerCount(s))).toEqual(before);
  });

  test('a text board gives the same deductions as the screenshot it was read from', async () => {
    const input = copy('board-source.png');
    const fromImage = JSON.parse((await runCli([input, '--json', '-o', path.join(tmp.dir, 'x.png')])).stdout);
    const boardFile = path.join(tmp.dir, 'read.board.txt');
    writeFileSync(boardFile, fromImage.board.join('\n') + '\n');
    const fromText = JSON.parse((await runCli([boardFile, '--json'])).stdout);
    expect(fromText.status).toBe('ok');
    expect(fromText.mines).toEqual(fromImage.mines);
    expect(fromText.safe).toEqual(fromImage.safe);
    expect(fromImage.mines.length + fromImage.safe.length).toBeGreaterThan(10);
    expect(fromText.output).toBeNull();
  });

  test('--board prints the board with m/s overlays that match --json', async () => {
    const input = copy('overlay.png');
    const json = JSON.parse((await runCli([input, '--json', '-o', path.join(tmp.dir, 'o1.png')])).stdout);
    const { stdout } = await runCli([input, '--board', '-o', path.join(tmp.dir, 'o2.png')]);
    const rows = stdout
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('#'));
    const marked = (ch: string): number[][] =>
      rows.flatMap((l, r) => [...l].flatMap((c, k) => (c === ch ? [[r, k]] : [])));
    const hidden = (cells: number[][]): number[][] => cells.filter(([r, c]) => json.board[r][c] === '.');
    expect(marked('m')).toEqual(hidden(json.mines));
    expect(marked('s')).toEqual(hidden(json.safe));
  });

  test('--mines adds the total to the deductions and the JSON', async () => {
    const boardFile = path.join(tmp.dir, 'endgame.txt');
    writeFileSync(boardFile, '1.\n..\n');
    const without = JSON.parse((await runCli([boardFile, '--json'])).stdout);
    const withTotal = JSON.parse((await runCli([boardFile, '--json', '--mines', '1'])).stdout);
    expect(without.mines).toEqual([]);
    expect(withTotal.totalMines).toBe(1);
    expect(withTotal.safe).toEqual([]);
    const two = JSON.parse((await runCli([boardFile, '--json', '--mines', '3'])).stdout);
    expect(two.status).toBe('inconsistent');
  });

  test('a batch goes on past a bad file and exits 3; the bad file gets a one-line error', async () => {
    const good = copy('good.png');
    const bad = path.join(tmp.dir, 'bad.png');
    writeFileSync(bad, 'this is not an image\n');
    const { code, stdout, stderr } = await runCli([bad, good, '--json', '-o', path.join(tmp.dir, 'out')]);
    expect(code).toBe(3);
    const results = JSON.parse(stdout);
    expect(results.map((r: { status: string }) => r.status)).toEqual(['error', 'ok']);
    expect(results[0].error).toMatch(/^not an image/);
    expect(results[0].error).not.toContain('\n');
    expect(existsSync(path.join(tmp.dir, 'out', 'good.annotated.png'))).toBe(true);
    expect(stderr).toContain('bad.png: error: not an image');
  });

  test('-r: subfolders too, outputs mirror them under -o, summary.json lists all files; inputs untouched', async () => {
    const root = path.join(tmp.dir, 'tree');
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    copyFileSync(SHOT, path.join(root, 'one.png'));
    copyFileSync(SHOT, path.join(root, 'a', 'b', 'two.png'));
    writeFileSync(path.join(root, 'a', 'bad.png'), 'not an image');
    const before = readFileSync(path.join(root, 'one.png'));
    const out = path.join(tmp.dir, 'tree-out');
    const { code, stderr } = await runCli([root, '-r', '-o', out]);
    expect(code).toBe(3);
    expect(existsSync(path.join(out, 'one.annotated.png'))).toBe(true);
    expect(existsSync(path.join(out, 'a', 'b', 'two.annotated.png'))).toBe(true);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.totals).toEqual({ files: 3, ok: 2, inconsistent: 0, error: 1 });
    expect(summary.files.map((f: { file: string; status: string }) => [path.relative(root, f.file), f.status])).toEqual(
      [
        [path.join('a', 'b', 'two.png'), 'ok'],
        [path.join('a', 'bad.png'), 'error'],
        ['one.png', 'ok'],
      ],
    );
    expect(summary.files[0]).toMatchObject({ board: '20×24', unreadable: 0 });
    expect(stderr).toMatch(/3 files: 2 ok, 0 inconsistent, 1 error/);
    expect(readFileSync(path.join(root, 'one.png')).equals(before)).toBe(true);
    expect((await runCli([root, '-o', path.join(tmp.dir, 'flat')])).code).toBe(0);
  });

  test('a folder of one image is a batch: -o names a folder (output, summary.json), --json an array', async () => {
    const folder = path.join(tmp.dir, 'single');
    mkdirSync(folder);
    copyFileSync(SHOT, path.join(folder, 'only.png'));
    const out = path.join(tmp.dir, 'single-out');
    const { code, stdout } = await runCli([folder, '-o', out, '--json']);
    expect(code).toBe(0);
    expect(statSync(out).isDirectory()).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['only.annotated.png', 'summary.json']);
    const json = JSON.parse(stdout);
    expect(Array.isArray(json)).toBe(true);
    expect(json.map((r: { output: string }) => r.output)).toEqual([path.join(out, 'only.annotated.png')]);
    expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).totals).toEqual({
      files: 1,
      ok: 1,
      inconsistent: 0,
      error: 0,
    });
    // a file named alone is not: -o names its output file
    const file = path.join(tmp.dir, 'single-file.png');
    expect((await runCli([path.join(folder, 'only.png'), '-o', file])).code).toBe(0);
    expect(statSync(file).isFile()).toBe(true);
  });

  // an image linked to is read, a broken link named as an image is reported; with -r a linked folder is read once,
  // and a link back up is no loop
  test('links in a folder: images linked to are read, broken ones reported; -r: no folder twice, no loop', async () => {
    const root = path.join(tmp.dir, 'links');
    const elsewhere = path.join(tmp.dir, 'elsewhere');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    mkdirSync(elsewhere);
    copyFileSync(SHOT, path.join(elsewhere, 'target.png'));
    copyFileSync(SHOT, path.join(root, 'sub', 'inside.png'));
    symlinkSync(path.join(elsewhere, 'target.png'), path.join(root, 'linked.png'));
    symlinkSync(path.join(tmp.dir, 'nowhere.png'), path.join(root, 'broken.png'));
    symlinkSync(elsewhere, path.join(root, 'far'));
    symlinkSync(path.join(root, 'sub'), path.join(root, 'sub-again'));
    symlinkSync(root, path.join(root, 'sub', 'up'));
    const out = path.join(tmp.dir, 'links-out');
    const { code, stderr } = await runCli([root, '-r', '-o', out]);
    expect(code).toBe(3);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary.files.map((f: { file: string; status: string }) => [path.relative(root, f.file), f.status])).toEqual(
      [
        ['broken.png', 'error'],
        [path.join('far', 'target.png'), 'ok'],
        ['linked.png', 'ok'],
        [path.join('sub', 'inside.png'), 'ok'],
      ],
    );
    expect(summary.files[0].error).toMatch(/^cannot read the file/);
    expect(stderr).toMatch(/broken\.png: error: cannot read the file/);
    expect(existsSync(path.join(out, 'far', 'target.annotated.png'))).toBe(true);
    expect(existsSync(path.join(out, 'linked.annotated.png'))).toBe(true);
    // without -r only the folder's own files, links to images among them
    const flat = JSON.parse((await runCli([root, '--json', '-o', path.join(tmp.dir, 'links-flat')])).stdout);
    expect(flat.map((r: { file: string }) => path.basename(r.file))).toEqual(['broken.png', 'linked.png']);
  });

  test('an unwritable output: one line, its name and why (no temp name or errno), exit 3; batch goes on', async () => {
    const good = copy('writable.png');
    const blocker = path.join(tmp.dir, 'a-file');
    writeFileSync(blocker, 'a file where a folder should be');
    for (const jobs of ['1', '2']) {
      const { code, stderr } = await runCli([
        good,
        copy('second.png'),
        '-o',
        path.join(blocker, 'out'),
        '--jobs',
        jobs,
      ]);
      expect(code).toBe(3);
      const lines = stderr.trim().split('\n');
      expect(lines.slice(0, 2)).toEqual(
        ['writable.png', 'second.png'].map(
          (name) =>
            `${path.join(tmp.dir, name)}: error: cannot make the folder ${path.join(blocker, 'out')}: ` +
            'part of its path is a file, not a folder',
        ),
      );
      expect(lines[2]).toMatch(/^2 files: 0 ok, 0 inconsistent, 2 error/);
    }
    const missing = path.join(tmp.dir, 'no-such-folder', 'out.png');
    const { code, stderr } = await runCli([good, '-o', missing]);
    expect(code).toBe(3);
    expect(stderr.trim()).toBe(`${good}: error: cannot write ${missing}: its folder does not exist`);
  });

  test('-o a pipe or a device (/dev/null): written to as it is, not replaced by a file', async () => {
    const pipe = path.join(tmp.dir, 'out-pipe');
    execFileSync('mkfifo', [pipe]);
    const received = new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      createReadStream(pipe)
        .on('data', (c) => chunks.push(c as Buffer))
        .on('end', () => resolve(Buffer.concat(chunks)))
        .on('error', reject);
    });
    const { code } = await runCli([SHOT, '-o', pipe]);
    expect(code).toBe(0);
    const meta = await sharp(await received).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1280, 1024]);
    expect(lstatSync(pipe).isFIFO()).toBe(true);
    expect(readdirSync(tmp.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('a name near 255 bytes: its annotated PNG is written (the temp name cut to fit), none left behind', async () => {
    const folder = path.join(tmp.dir, 'long-names');
    mkdirSync(folder);
    const name = 'é'.repeat(110) + 'x'.repeat(16) + '.png'; // 240 bytes; annotated: 250
    copyFileSync(SHOT, path.join(folder, name));
    const { code } = await runCli([path.join(folder, name)]);
    expect(code).toBe(0);
    expect(readdirSync(folder).sort()).toEqual([name, name.replace('.png', '.annotated.png')].sort());
  });

  test('an animated GIF: its first frame is read, and it says so (also when that frame holds no board)', async () => {
    const blank = await sharp({ create: { width: 1280, height: 1024, channels: 3, background: '#204020' } })
      .png()
      .toBuffer();
    const [still, boardFirst, boardSecond] = ['still.gif', 'board-first.gif', 'board-second.gif'].map((name) =>
      path.join(tmp.dir, name),
    );
    await sharp(SHOT).gif().toFile(still);
    await sharp([SHOT, blank], { join: { animated: true } })
      .gif()
      .toFile(boardFirst);
    await sharp([blank, SHOT], { join: { animated: true } })
      .gif()
      .toFile(boardSecond);
    const json = async (file: string) => JSON.parse((await runCli([file, '--json', '-o', file + '.out.png'])).stdout);
    const [a, b] = [await json(still), await json(boardFirst)];
    expect(b.status).toBe('ok');
    expect([b.board, b.mines, b.safe]).toEqual([a.board, a.mines, a.safe]);
    expect(b.mines.length + b.safe.length).toBeGreaterThan(10);
    expect(a.notes.join(' ')).not.toMatch(/frame/);
    expect(b.notes).toContain('an animated image: only the first of its 2 frames was read');
    expect((await runCli([boardFirst, '-o', path.join(tmp.dir, 'anim.png')])).stdout).toMatch(
      /, the first of 2 frames read → /,
    );
    const { code, stderr } = await runCli([boardSecond]);
    expect(code).toBe(3);
    expect(stderr.trim()).toBe(
      `${boardSecond}: error: no board found: no regular grid of cells in the image ` +
        '(an animated image: only the first of its 2 frames was read)',
    );
  });

  test('an image without a board is an error with exit 3', async () => {
    const blank = path.join(tmp.dir, 'blank.png');
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a6e3a' } })
      .png()
      .toFile(blank);
    const { code, stderr } = await runCli([blank]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/no board found/);
  });

  test('a calendar-like grid of plain boxes is no board either: it says so, not that a skin is missing', async () => {
    const boxes = Array.from(
      { length: 35 },
      (_, i) =>
        `<rect x="${20 + (i % 7) * 90}" y="${20 + Math.floor(i / 7) * 90}" ` +
        'width="84" height="84" fill="#def" stroke="#89a"/>',
    );
    const calendar = path.join(tmp.dir, 'calendar.png');
    await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="700" height="500">' +
          `<rect width="700" height="500" fill="#fff"/>${boxes.join('')}</svg>`,
      ),
    )
      .png()
      .toFile(calendar);
    const { code, stderr } = await runCli([calendar]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/no board found: the grid of 5×7 cells here fits skin \S+ as well half a cell off/);
  });

  test('refuses to write over an input', async () => {
    const input = copy('keep.png');
    const before = statSync(input).mtimeMs;
    const { code, stderr } = await runCli([input, '-o', input]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/refusing to overwrite the input/);
    expect(statSync(input).mtimeMs).toBe(before);
  });

  test('usage errors exit 2 with a one-line hint', async () => {
    expect((await runCli([])).code).toBe(2);
    expect((await runCli([SHOT, '--no-such-option'])).code).toBe(2);
    const bad = await runCli([SHOT, '--mines', '-4']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mines/);
    const nested = path.join(tmp.dir, 'nested');
    mkdirSync(path.join(nested, 'inner'), { recursive: true });
    copyFileSync(SHOT, path.join(nested, 'inner', 'shot.png'));
    const flat = await runCli([nested]);
    expect(flat.code).toBe(2);
    expect(flat.stderr.split('\n')[0]).toBe('mine-assist: no input images found (the folders in it are read with -r)');
    expect((await runCli([nested, '-r', '-o', path.join(tmp.dir, 'nested-out')])).code).toBe(0);
  });

  test('learn refuses a board text that does not match the image grid', async () => {
    const boardFile = path.join(tmp.dir, 'wrong-size.board.txt');
    writeFileSync(boardFile, '...\n...\n');
    const { code, stderr } = await runCli([
      'learn',
      SHOT,
      '--board',
      boardFile,
      '--name',
      'x',
      '--out',
      path.join(tmp.dir, 'skin'),
    ]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/board text is 2×3 but the image shows 20×24/);
    const blocker = path.join(tmp.dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const board = path.join(FIXTURES, 'xdemineur/s2-05.board.txt');
    const unwritable = await runCli([
      'learn',
      SHOT,
      '--board',
      board,
      '--name',
      'x',
      '--out',
      path.join(blocker, 'skin'),
    ]);
    expect([unwritable.code, unwritable.stderr.trim()]).toEqual([
      3,
      `mine-assist learn: cannot make the folder ${path.join(blocker, 'skin')}: ` +
        'part of its path is a file, not a folder',
    ]);
  });
});

describe('mine-assist CLI: probabilities, reasons, conflicts, exports', () => {
  const tmp = tempDir();
  afterAll(tmp.cleanup);
  const boardFile = (name: string, text: string): string => {
    const file = path.join(tmp.dir, name);
    writeFileSync(file, text);
    return file;
  };

  test('--json: one probability per unknown cell, a reason per certain cell, the best guess and notes', async () => {
    const file = boardFile('odds.txt', '# mines=2\n1...\n1F..\n1...\n');
    const json = JSON.parse((await runCli([file, '--json'])).stdout);
    expect(json.probabilities.map(([r, c]: number[]) => `${r},${c}`)).toEqual([
      '0,1',
      '0,2',
      '0,3',
      '1,1',
      '1,2',
      '1,3',
      '2,1',
      '2,2',
      '2,3',
    ]);
    expect(json.probabilities.find(([r, c]: number[]) => r === 1 && c === 1)[2]).toBe(1);
    const certain = [...json.mines, ...json.safe].map(String).sort();
    expect(json.reasons.map((r: { cell: number[] }) => String(r.cell)).sort()).toEqual(certain);
    const flagReason = json.reasons.find((r: { cell: number[] }) => String(r.cell) === '1,1');
    expect({ ...flagReason, witnesses: flagReason.witnesses.map(String).sort() }).toEqual({
      cell: [1, 1],
      mine: true,
      witnesses: ['0,0', '1,0', '2,0'],
      total: false,
    });
    expect(json.flags.proven).toEqual([[1, 1]]);
    expect(json.bestGuess).toBeNull();
    expect(json.conflict).toBeNull();
    const noTotal = JSON.parse((await runCli([boardFile('nototal.txt', '1...\n1F..\n1...\n'), '--json'])).stdout);
    expect(noTotal.probabilities.filter(([, , p]: number[]) => p === null)).toHaveLength(6);
    expect(noTotal.notes.join(' ')).toMatch(/no total mine count/);
  });

  test('--trust-flags: flags are listed as trusted, not checked', async () => {
    const json = JSON.parse(
      (await runCli([boardFile('trust.txt', '1...\n1F..\n1...\n'), '--json', '--trust-flags'])).stdout,
    );
    expect(json.flags).toEqual({ proven: [], unproven: [], wrong: [], trusted: [[1, 1]] });
    expect(json.probabilities.map(([r, c]: number[]) => `${r},${c}`)).not.toContain('1,1');
  });

  test('--explain prints the witnesses in words; a bad cell is a usage error', async () => {
    const file = boardFile('explain.txt', '1...\n1F..\n1...\n');
    const { code, stdout } = await runCli([file, '--explain', '1,1']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'r1c1 (a flag, proven right) is certainly a mine.',
        'If it were safe, these could not all hold:',
        '  r0c0 shows 1: 1 mine among r0c1, r1c1',
        '  r1c0 shows 1: 1 mine among r0c1, r1c1, r2c1',
        '  r2c0 shows 1: 1 mine among r1c1, r2c1',
        '',
      ].join('\n'),
    );
    const bad = await runCli([file, '--explain', 'r1c1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--explain takes ROW,COL/);
  });

  test('--export mine and minesweepr print the board in those formats', async () => {
    const file = boardFile('export.txt', '# mines=1\n01.\n01F\n');
    expect((await runCli([file, '--export', 'mine'])).stdout).toBe('3x2x1\n01H\n01F\n');
    const ascii = await runCli([file, '--export', 'minesweepr']);
    expect(ascii.stdout).toBe('.1x\n.1x\n');
    expect(ascii.stderr).toMatch(/total mines for minesweepr: 1/);
    expect((await runCli([file, '--export', 'svg'])).code).toBe(2);
  });

  test('a misread count in a screenshot: inconsistent, the conflict drawn, re-reading suggested, exit 3', async () => {
    const [left, top, pitch] = [167, 282, 21];
    const three = await sharp(SHOT)
      .extract({ left: left + 19 * pitch, top: top + 2 * pitch, width: pitch, height: pitch })
      .png()
      .toBuffer();
    const input = path.join(tmp.dir, 'misread.png');
    await sharp(SHOT)
      .composite([{ input: three, left: left + 18 * pitch, top: top + 4 * pitch }])
      .png()
      .toFile(input);
    const out = path.join(tmp.dir, 'misread.annotated.png');
    const { code, stdout } = await runCli([input, '--json', '-o', out, '--skin', 'xdemineur']);
    expect(code).toBe(3);
    const json = JSON.parse(stdout);
    expect(json.status).toBe('inconsistent');
    expect(json.conflict).toEqual({
      cells: [
        [4, 17],
        [4, 18],
      ],
      total: false,
    });
    expect(json.suggestions[0]).toMatchObject({ cell: [4, 18], read: '3', consistentIf: '2' });
    expect(existsSync(out)).toBe(true);
  });

  test('--probabilities draws a heat map: the picture changes only where cells are uncertain', async () => {
    const plain = path.join(tmp.dir, 'plain.png');
    const heat = path.join(tmp.dir, 'heat.png');
    await runCli([SHOT, '-o', plain, '--skin', 'xdemineur']);
    await runCli([SHOT, '-o', heat, '--probabilities', '--skin', 'xdemineur']);
    const [a, b] = await Promise.all([plain, heat].map((f) => sharp(f).raw().toBuffer()));
    let changed = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) changed++;
    expect(changed).toBeGreaterThan(1000);
  });
});
