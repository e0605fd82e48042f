// mine-assist's "Watch a window": the browser's screen capture (getDisplayMedia) shows the game's window live, and
// the marks are drawn over it. Each tick (10 a second, none while this tab is hidden) a small copy of the picture —
// the board and a margin once a board is known, else the whole picture — is compared with the tick before and with
// the frame last sent: a frame is sent (POST /api/watch/<id>, raw RGBA pixels, to this computer's server only) when
// it differs from the last one sent and has settled (the same as the tick before: a moving cursor never settles), a
// change of a few small pixels being no change. Uses app.js's helpers ($, state, line, cellAt, tipText, …).
'use strict';
(() => {
  const TICK_MS = 100;
  /** The small copy's longest side, pixels. */
  const SMALL = 480;
  /** A small pixel differs when a channel moved by more than this; fewer than MIN_PIXELS such pixels is no change. */
  const TOLERANCE = 24;
  const MIN_PIXELS = 3;

  const watch = {
    on: false,
    id: '',
    stream: null,
    timer: 0,
    inFlight: false,
    answer: null,
    last: null, // the tick before's small copy
    sent: null, // the frame last sent (a canvas) and its small copy
    sentSmall: null,
    region: null, // the part of the picture compared, in frame pixels
    view: null,
  };
  window.__mineAssistWatch = watch; // for the browser test: what is watched, what was answered

  const video = $('live-video');
  const marks = $('live-marks');

  $('watch-button').addEventListener('click', () => toggle());
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'w' && event.key !== 'W') return;
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    event.preventDefault();
    toggle();
  });
  document.addEventListener('visibilitychange', () => {
    if (watch.on && !document.hidden) watch.last = null; // a fresh look once shown again
  });
  for (const id of ['mines', 'skin', 'trustFlags']) {
    $(id).addEventListener('change', () => watch.on && (watch.sentSmall = null));
  }
  $('whole').addEventListener('change', () => watch.on && layout());
  window.addEventListener('resize', () => watch.on && layout());

  function toggle() {
    return watch.on ? stop() : start();
  }

  async function start() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getDisplayMedia)
      return refuse('This browser cannot share a window with a page (no screen capture here).');
    let stream;
    try {
      stream = await navigator.mediaDevices.getDisplayMedia({
        video: { cursor: 'never', frameRate: { ideal: 10 } },
        audio: false,
      });
    } catch (err) {
      const why =
        err && err.name === 'NotAllowedError'
          ? 'Sharing a window was refused or cancelled.'
          : `The window could not be shared (${(err && err.message) || err}).`;
      return refuse(why);
    }
    Object.assign(watch, { on: true, stream, answer: null, last: null, sent: null, sentSmall: null, region: null });
    watch.id = `w${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    for (const track of stream.getVideoTracks()) track.addEventListener('ended', () => stop());
    video.srcObject = stream;
    await video.play().catch(() => undefined);
    $('watch-button').textContent = 'Stop watching';
    $('watch-button').classList.add('on');
    for (const id of ['empty', 'error', 'result']) $(id).hidden = true;
    $('watch').hidden = false;
    showAnswer(null);
    watch.timer = setInterval(tick, TICK_MS);
  }

  function stop() {
    if (!watch.on) return;
    clearInterval(watch.timer);
    for (const track of watch.stream.getTracks()) track.stop();
    video.srcObject = null;
    fetch(`/api/watch/${watch.id}`, { method: 'DELETE' }).catch(() => undefined);
    Object.assign(watch, { on: false, stream: null, answer: null });
    $('watch-button').textContent = 'Watch a window';
    $('watch-button').classList.remove('on');
    $('watch').hidden = true;
    $('empty').hidden = false;
  }

  /** Capture refused or unsupported: a plain message, and the paste/drop page as before. */
  function refuse(message) {
    $('error').textContent = `${message} Paste, drop or choose a screenshot instead.`;
    $('error').hidden = false;
    $('empty').hidden = false;
    $('result').hidden = true;
    $('watch').hidden = true;
  }

  // ---- frames: compared small, sent whole ----

  function tick() {
    if (!watch.on || document.hidden || watch.inFlight || video.readyState < 2 || !video.videoWidth) return;
    const region = comparedRegion();
    const small = smallCopy(video, region);
    const settled = watch.last !== null && !differs(small, watch.last);
    watch.last = small;
    if (!settled) return;
    if (watch.sentSmall && !differs(small, watch.sentSmall)) return;
    send();
  }

  /** The board and a margin of a cell and a half (the window moving shows there), or the whole picture. */
  function comparedRegion() {
    const width = video.videoWidth;
    const height = video.videoHeight;
    const a = watch.answer;
    if (!a || !a.grid || a.game === 'no board' || watch.sentWidth !== width || watch.sentHeight !== height)
      return { x: 0, y: 0, width, height };
    const g = a.grid;
    const mx = 1.5 * g.pitchX;
    const my = 1.5 * g.pitchY;
    const x = Math.max(0, Math.floor(g.left - mx));
    const y = Math.max(0, Math.floor(g.top - my));
    const right = Math.min(width, Math.ceil(g.left + g.cols * g.pitchX + mx));
    const bottom = Math.min(height, Math.ceil(g.top + g.rows * g.pitchY + my));
    return { x, y, width: right - x, height: bottom - y };
  }

  function smallCopy(source, region) {
    const k = Math.min(1, SMALL / Math.max(region.width, region.height));
    const w = Math.max(1, Math.round(region.width * k));
    const h = Math.max(1, Math.round(region.height * k));
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    context.drawImage(source, region.x, region.y, region.width, region.height, 0, 0, w, h);
    return {
      key: `${region.x},${region.y},${region.width},${region.height}`,
      data: context.getImageData(0, 0, w, h).data,
    };
  }

  function differs(a, b) {
    if (a.key !== b.key || a.data.length !== b.data.length) return true;
    let count = 0;
    const x = a.data;
    const y = b.data;
    for (let i = 0; i < x.length; i += 4) {
      if (
        Math.abs(x[i] - y[i]) > TOLERANCE ||
        Math.abs(x[i + 1] - y[i + 1]) > TOLERANCE ||
        Math.abs(x[i + 2] - y[i + 2]) > TOLERANCE
      )
        if (++count >= MIN_PIXELS) return true;
    }
    return false;
  }

  async function send() {
    const width = video.videoWidth;
    const height = video.videoHeight;
    const frame = document.createElement('canvas');
    frame.width = width;
    frame.height = height;
    const context = frame.getContext('2d', { willReadFrequently: true });
    context.drawImage(video, 0, 0);
    const pixels = context.getImageData(0, 0, width, height).data;
    const params = new URLSearchParams({ width: String(width), height: String(height) });
    const mines = $('mines').value.trim();
    if (mines !== '') params.set('mines', mines);
    if ($('skin').value) params.set('skin', $('skin').value);
    if ($('trustFlags').checked) params.set('trustFlags', '1');
    const id = watch.id;
    watch.inFlight = true;
    watch.sentSmall = watch.last;
    const started = performance.now();
    let answer;
    try {
      const response = await fetch(`/api/watch/${id}?${params}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: pixels,
      });
      answer = await response.json().catch(() => ({ status: 'error', error: `${response.status}` }));
      if (!response.ok) answer = { status: 'error', error: answer.error || `the server answered ${response.status}` };
    } catch {
      answer = { status: 'error', error: 'The server did not answer. Is "mine-assist serve" still running?' };
    } finally {
      watch.inFlight = false;
    }
    if (!watch.on || id !== watch.id) return;
    Object.assign(watch, { sent: frame, sentWidth: width, sentHeight: height });
    answer.roundTrip = Math.round(performance.now() - started);
    // the compared region may change with the board found: the frame sent is the reference there too
    const region = comparedRegion();
    watch.sentSmall = smallCopy(frame, region);
    watch.last = null;
    showAnswer(answer);
  }

  // ---- what is shown: the live view zoomed to the board, the marks, the counts ----

  function showAnswer(answer) {
    watch.answer = answer;
    const board = answer && answer.grid && answer.game !== 'no board' && Array.isArray(answer.board);
    $('live-none').hidden = !answer || board;
    if (answer && !answer.board) $('live-none').textContent = noBoardText(answer);
    if (board) {
      state.result = answer;
      state.mines = new Set(answer.mines.map(String));
      state.safe = new Set(answer.safe.map(String));
      state.odds = new Map((answer.probabilities || []).map(([r, c, p]) => [`${r},${c}`, p]));
    }
    $('live-mines').textContent = String(board ? answer.mines.length : 0);
    $('live-safe').textContent = String(board ? answer.safe.length : 0);
    showVerdictOf(answer, board);
    showFactsOf(answer, board);
    layout();
  }

  function noBoardText(answer) {
    if (answer.game === 'no board' || /^no board/.test(answer.error || '')) return 'No board in view';
    return `No board in view: ${answer.error}`;
  }

  function showVerdictOf(answer, board) {
    const verdict = $('live-verdict');
    verdict.replaceChildren();
    if (!answer) {
      verdict.className = 'verdict';
      return verdict.append(line('strong', 'Watching…'), line('p', 'Waiting for the first picture.'));
    }
    const game = board ? answer.game : 'no board';
    verdict.className = `verdict ${game.replace(' ', '-')}`;
    const words = {
      'no board': ['No board in view', 'Show the game’s board in the shared window; it is read as soon as it appears.'],
      lost: ['Game lost', 'The game shows its mines.'],
      won: ['Game won', 'Every cell left closed is a mine.'],
      inconsistent: ['Inconsistent board', 'The counts framed in yellow cannot all hold: one may be misread.'],
      playing:
        answer && answer.mines && answer.mines.length + answer.safe.length === 0
          ? [
              'No certain cell',
              `Nothing is certain yet${answer.bestGuess ? ': the blue “?” marks the best guess' : ''}.`,
            ]
          : ['Playing', 'Green checks are safe to open, red discs are mines.'],
    }[game];
    verdict.append(line('strong', words[0]), line('p', words[1]));
    if (game === 'inconsistent' && answer.conflictText) verdict.append(line('pre', answer.conflictText));
  }

  function showFactsOf(answer, board) {
    const facts = [];
    if (answer && board) {
      facts.push(['Board', `${answer.board.length}×${answer.board[0].length}`]);
      facts.push(['Total mines', answer.totalMines === null ? 'unknown' : String(answer.totalMines)]);
      if (answer.counter) facts.push(['Mine counter', counterText(answer.counter)]);
      if (answer.bestGuess) facts.push(['Best guess', cellName(answer.bestGuess)]);
      if (answer.unreadable.length) facts.push(['Unreadable', `${answer.unreadable.length} (treated as hidden)`]);
      if (answer.skin) facts.push(['Skin', answer.skin]);
    }
    if (answer && answer.frame) {
      const how = { full: 'read whole', cells: `${answer.changed} cells read again`, same: 'no cell changed' };
      facts.push(['Frames read', `${answer.frame} (last: ${how[answer.how] || 'unchanged'}, ${answer.roundTrip} ms)`]);
    }
    $('live-facts').replaceChildren(...facts.flatMap(([term, value]) => [line('dt', term), line('dd', value)]));
  }

  /** The board and a margin, or the whole picture, fitted to the room; the marks' canvas over it. */
  function layout() {
    if (!watch.on) return;
    const width = video.videoWidth || 640;
    const height = video.videoHeight || 360;
    const a = watch.answer;
    const g = a && a.grid && a.game !== 'no board' ? a.grid : null;
    let v = { x: 0, y: 0, width, height };
    if (g && !$('whole').checked) {
      const m = Math.max(2 * g.pitchX, 24);
      const x = Math.max(0, Math.floor(g.left - m));
      const y = Math.max(0, Math.floor(g.top - 1.5 * m));
      const right = Math.min(width, Math.ceil(g.left + g.cols * g.pitchX + m));
      const bottom = Math.min(height, Math.ceil(g.top + g.rows * g.pitchY + m));
      v = { x, y, width: right - x, height: bottom - y };
    }
    const live = $('live');
    const room = live.parentElement.clientWidth || 640;
    const scale = Math.min(room / v.width, (window.innerHeight * 0.8) / v.height, 3);
    watch.view = { ...v, scale };
    live.style.width = `${Math.round(v.width * scale)}px`;
    live.style.height = `${Math.round(v.height * scale)}px`;
    Object.assign(video.style, {
      width: `${width * scale}px`,
      left: `${-v.x * scale}px`,
      top: `${-v.y * scale}px`,
    });
    video.classList.toggle('pixelated', scale >= 1.5);
    drawMarks(g ? a : null);
  }

  function drawMarks(a) {
    const { width, height, x: vx, y: vy, scale } = watch.view;
    const ratio = window.devicePixelRatio || 1;
    marks.width = Math.round(width * scale * ratio);
    marks.height = Math.round(height * scale * ratio);
    marks.style.width = `${Math.round(width * scale)}px`;
    marks.style.height = `${Math.round(height * scale)}px`;
    const c = marks.getContext('2d');
    c.setTransform(ratio * scale, 0, 0, ratio * scale, -vx * ratio * scale, -vy * ratio * scale);
    const drawn = { mines: [], safe: [] };
    if (a) {
      const g = a.grid;
      const box = ([row, col]) => ({
        x: g.lefts ? g.lefts[col] : g.left + col * g.pitchX,
        y: g.tops ? g.tops[row] : g.top + row * g.pitchY,
        w: g.pitchX,
        h: g.pitchY,
      });
      const flagged = (cell) => a.board[cell[0]][cell[1]] === 'F';
      for (const cell of a.unreadable) frame(c, box(cell), '#f08c00', true);
      if (a.status === 'inconsistent' && a.conflict)
        for (const cell of a.conflict.cells) frame(c, box(cell), '#ffd400');
      for (const cell of a.mines) {
        if (flagged(cell)) ring(c, box(cell), '#d4342c', false);
        else disc(c, box(cell), '#d4342c');
        drawn.mines.push(cell);
      }
      for (const cell of a.safe) {
        if (flagged(cell)) cross(c, box(cell));
        else check(c, box(cell));
        drawn.safe.push(cell);
      }
      for (const cell of a.flags.unproven) ring(c, box(cell), '#ffffff', true);
      if (a.bestGuess && !a.safe.length) guess(c, box(a.bestGuess));
    }
    // what is drawn, for the browser test
    marks.dataset.mines = JSON.stringify(drawn.mines);
    marks.dataset.safe = JSON.stringify(drawn.safe);
    marks.dataset.board = a ? a.board.join('\n') : '';
    marks.dataset.game = watch.answer ? watch.answer.game || 'error' : '';
  }

  function disc(c, b, colour) {
    const r = Math.min(b.w, b.h) * 0.32;
    c.beginPath();
    c.arc(b.x + b.w / 2, b.y + b.h / 2, r, 0, 2 * Math.PI);
    c.fillStyle = colour;
    c.fill();
    c.lineWidth = Math.max(1, r * 0.3);
    c.strokeStyle = '#ffffff';
    c.stroke();
  }

  function ring(c, b, colour, dashed) {
    c.beginPath();
    c.arc(b.x + b.w / 2, b.y + b.h / 2, Math.min(b.w, b.h) * 0.45, 0, 2 * Math.PI);
    c.setLineDash(dashed ? [2, 2] : []);
    c.lineWidth = Math.max(1, b.w * 0.08);
    c.strokeStyle = colour;
    c.stroke();
    c.setLineDash([]);
  }

  function check(c, b) {
    c.beginPath();
    c.moveTo(b.x + b.w * 0.22, b.y + b.h * 0.52);
    c.lineTo(b.x + b.w * 0.42, b.y + b.h * 0.72);
    c.lineTo(b.x + b.w * 0.8, b.y + b.h * 0.28);
    c.lineCap = 'round';
    c.lineJoin = 'round';
    c.lineWidth = Math.max(1.5, b.w * 0.2);
    c.strokeStyle = '#ffffff';
    c.stroke();
    c.lineWidth = Math.max(1, b.w * 0.12);
    c.strokeStyle = '#1f9d55';
    c.stroke();
  }

  function cross(c, b) {
    c.beginPath();
    c.moveTo(b.x + b.w * 0.2, b.y + b.h * 0.2);
    c.lineTo(b.x + b.w * 0.8, b.y + b.h * 0.8);
    c.moveTo(b.x + b.w * 0.8, b.y + b.h * 0.2);
    c.lineTo(b.x + b.w * 0.2, b.y + b.h * 0.8);
    c.lineWidth = Math.max(1, b.w * 0.12);
    c.strokeStyle = '#e0119d';
    c.stroke();
  }

  function frame(c, b, colour, dashed) {
    c.setLineDash(dashed ? [3, 2] : []);
    c.lineWidth = Math.max(1, b.w * 0.1);
    c.strokeStyle = colour;
    c.strokeRect(b.x + 1, b.y + 1, b.w - 2, b.h - 2);
    c.setLineDash([]);
  }

  function guess(c, b) {
    disc(c, b, '#2f6fdf');
    c.fillStyle = '#ffffff';
    c.font = `bold ${Math.round(b.h * 0.5)}px system-ui, sans-serif`;
    c.textAlign = 'center';
    c.textBaseline = 'middle';
    c.fillText('?', b.x + b.w / 2, b.y + b.h / 2 + 0.5);
  }

  // ---- hover: the reasons, as for a pasted screenshot ----

  $('live').addEventListener('mousemove', (event) => {
    const a = watch.answer;
    if (!a || !a.grid || !Array.isArray(a.board) || !watch.view) return hide();
    const box = $('live').getBoundingClientRect();
    const { x: vx, y: vy, scale } = watch.view;
    const cell = cellAt(a.grid, vx + (event.clientX - box.left) / scale, vy + (event.clientY - box.top) / scale);
    const ch = cell && a.board[cell[0]][cell[1]];
    if (!cell || !'.?F'.includes(ch)) return hide();
    const g = a.grid;
    Object.assign($('live-cursor').style, {
      left: `${((g.lefts ? g.lefts[cell[1]] : g.left + cell[1] * g.pitchX) - vx) * scale}px`,
      top: `${((g.tops ? g.tops[cell[0]] : g.top + cell[0] * g.pitchY) - vy) * scale}px`,
      width: `${g.pitchX * scale}px`,
      height: `${g.pitchY * scale}px`,
    });
    $('live-cursor').hidden = false;
    const [title, body] = tipText(cell, ch);
    const tip = $('live-tip');
    tip.replaceChildren(line('strong', title), ...(body ? [line('p', body)] : []));
    tip.hidden = false;
    tip.style.left = `${event.clientX - box.left + 16}px`;
    tip.style.top = `${event.clientY - box.top + 16}px`;
  });
  $('live').addEventListener('mouseleave', hide);

  function hide() {
    $('live-tip').hidden = true;
    $('live-cursor').hidden = true;
  }
})();
