// mine-assist's page: sends a screenshot to the local server (POST /api/analyze, raw image body) and shows the
// answer: the annotated picture, the counts, the board read, and per hidden cell (on hover) why it is certain.
'use strict';

const $ = (id) => document.getElementById(id);
const state = { file: null, result: null, seq: 0 };

// ---- getting a screenshot: paste, drop, pick ----

document.addEventListener('paste', (event) => {
  const file = imageFrom(event.clipboardData);
  if (file) {
    event.preventDefault();
    return analyse(file);
  }
  if (!isTyping(event.target))
    showError(
      'The clipboard holds no picture. Copy a screenshot first (for example with PrtSc), then press Ctrl+V here.',
    );
});

document.addEventListener('dragover', (event) => {
  event.preventDefault();
  document.body.classList.add('dragging');
});
document.addEventListener('dragleave', (event) => {
  if (event.relatedTarget === null) document.body.classList.remove('dragging');
});
document.addEventListener('drop', (event) => {
  event.preventDefault();
  document.body.classList.remove('dragging');
  const file = event.dataTransfer && event.dataTransfer.files[0];
  if (file) analyse(file);
});

$('empty').addEventListener('click', () => $('file').click());
$('file').addEventListener('change', () => {
  const file = $('file').files[0];
  if (file) analyse(file);
  $('file').value = '';
});

for (const id of ['mines', 'skin', 'trustFlags', 'probabilities']) {
  $(id).addEventListener('change', () => state.file && analyse(state.file));
}
// Enter in "Total mines" commits it (a change)
$('options').addEventListener('submit', (event) => event.preventDefault());
$('whole').addEventListener('change', () => state.result && layout());
window.addEventListener('resize', () => state.result && layout());

/** The first file of a paste or drop: an image if there is one, else any file (the server says what is wrong). */
function imageFrom(data) {
  if (!data) return null;
  const files = Array.from(data.files || []);
  const items = Array.from(data.items || [])
    .filter((i) => i.kind === 'file')
    .map((i) => i.getAsFile())
    .filter(Boolean);
  const all = files.length ? files : items;
  return all.find((f) => f.type.startsWith('image/')) || all[0] || null;
}

function isTyping(target) {
  return (
    target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
  );
}

// ---- talking to the server ----

async function analyse(file) {
  state.file = file;
  const seq = ++state.seq;
  const params = new URLSearchParams();
  const mines = $('mines').value.trim();
  if (mines !== '') params.set('mines', mines);
  if ($('skin').value) params.set('skin', $('skin').value);
  if ($('trustFlags').checked) params.set('trustFlags', '1');
  if ($('probabilities').checked) params.set('probabilities', '1');
  $('busy').hidden = false;
  let reply;
  try {
    const response = await fetch('/api/analyze?' + params, {
      method: 'POST',
      headers: { 'Content-Type': file.type || 'application/octet-stream' },
      body: file,
    });
    const body = await response
      .json()
      .catch(() => ({ error: `the server answered ${response.status} ${response.statusText}` }));
    reply = response.ok ? { result: body } : { error: body.error || `the server answered ${response.status}` };
  } catch {
    reply = { error: 'The server did not answer. Is "mine-assist serve" still running?' };
  }
  if (seq !== state.seq) return; // a newer screenshot or option came meanwhile
  $('busy').hidden = true;
  if (reply.error) return showError(explainError(reply.error, file));
  showResult(reply.result);
}

function explainError(error, file) {
  const name = file && file.name ? `“${file.name}”: ` : '';
  return (
    `Could not analyse ${name ? name : 'this picture: '}` +
    `${error.charAt(0).toUpperCase()}${error.slice(1)}${/[.!?]$/.test(error) ? '' : '.'}`
  );
}

function showError(message) {
  $('busy').hidden = true;
  $('error').textContent = message;
  $('error').hidden = false;
  $('empty').hidden = true;
  $('result').hidden = true;
  state.result = null;
}

// ---- showing the answer ----

function showResult(result) {
  state.result = result;
  state.mines = new Set(result.mines.map(String));
  state.safe = new Set(result.safe.map(String));
  state.odds = new Map((result.probabilities || []).map(([r, c, p]) => [`${r},${c}`, p]));
  $('error').hidden = true;
  $('empty').hidden = true;
  $('result').hidden = false;
  $('mines-count').textContent = String(result.mines.length);
  $('safe-count').textContent = String(result.safe.length);
  $('board').textContent = result.boardText
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
  showVerdict(result);
  showFacts(result);
  const img = $('annotated');
  img.onload = layout;
  img.src = result.image;
}

function showVerdict(result) {
  const verdict = $('verdict');
  verdict.className = 'verdict ' + result.status;
  verdict.replaceChildren();
  const size = `${result.board.length}×${result.board[0].length} board`;
  if (result.status === 'inconsistent') {
    verdict.append(
      line('strong', 'Inconsistent board'),
      line(
        'p',
        `The ${size} as read cannot happen: the counts framed in yellow cannot all hold. ` +
          'Check them in the game; one may be misread.',
      ),
    );
    if (result.conflictText) verdict.append(line('pre', result.conflictText));
    return;
  }
  const nothing = result.mines.length + result.safe.length === 0;
  verdict.append(
    line('strong', nothing ? 'No certain cell' : 'Solved what can be proven'),
    line(
      'p',
      nothing
        ? `Nothing on this ${size} is certain yet${result.bestGuess ? ': the blue “?” marks the best guess' : ''}.`
        : `${size}: green checks are safe to open, red discs are mines.`,
    ),
  );
}

function showFacts(result) {
  const counter = result.counter || null;
  const total =
    result.totalMines === null
      ? 'unknown — enter it above for more deductions'
      : `${result.totalMines}${counter && counter.used ? ' (from the mine counter)' : ''}`;
  const facts = [['Total mines', total]];
  if (counter) facts.push(['Mine counter', counterText(counter)]);
  const flags = result.flags;
  const flagged = flags.proven.length + flags.unproven.length + flags.wrong.length + (flags.trusted || []).length;
  if (flagged)
    facts.push([
      'Flags',
      flags.trusted && flags.trusted.length
        ? `${flags.trusted.length} trusted`
        : `${flags.proven.length} proven, ${flags.unproven.length} unproven, ${flags.wrong.length} wrong`,
    ]);
  if (result.bestGuess)
    facts.push([
      'Best guess',
      `${cellName(result.bestGuess)} (${percent(state.odds.get(String(result.bestGuess)))} mine)`,
    ]);
  if (result.unreadable.length)
    facts.push([
      'Unreadable',
      `${result.unreadable.length} cell${result.unreadable.length === 1 ? '' : 's'} (treated as hidden)`,
    ]);
  if (result.skin)
    facts.push(['Skin', `${result.skin}${result.skinFit ? ` (fit ${Math.round(result.skinFit.fit * 100)}%)` : ''}`]);
  for (const note of result.notes) facts.push(['Note', note]);
  facts.push(['Time', `${result.ms} ms`]);
  $('facts').replaceChildren(...facts.flatMap(([term, value]) => [line('dt', term), line('dd', value)]));
}

/** The game's mine counter as read: what it shows, and whether its total was used (and if not, why). */
function counterText(counter) {
  if (!counter.read) return counter.text ? `not read (saw “${counter.text}”)` : 'not read';
  const shows = [
    counter.remaining === null ? '' : `${counter.remaining} left`,
    counter.total === null ? '' : `${counter.total} in all`,
  ]
    .filter(Boolean)
    .join(', ');
  const note = counter.used
    ? ''
    : counter.note
      ? ` — not used: ${counter.note.replace(/--mines (\d+) given/, 'total mines $1 entered')}`
      : ' — not used';
  return `“${counter.text}”${shows ? ` (${shows})` : ''}${note}`;
}

function line(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

const cellName = ([row, col]) => `r${row}c${col}`;
const percent = (p) =>
  p === null || p === undefined
    ? '?'
    : p > 0 && p < 0.001
      ? '<0.1%'
      : p < 1 && p > 0.999
        ? '>99.9%'
        : `${(p * 100).toFixed(1)}%`;

// ---- the picture: zoomed to the board (or whole), and what is under the pointer ----

/** The part of the screenshot on show: the board with a margin (room for the legend below), or all of it. */
function view() {
  const img = $('annotated');
  const { naturalWidth: width, naturalHeight: height } = img;
  const { grid } = state.result;
  if ($('whole').checked || !grid) return { x: 0, y: 0, width, height };
  const margin = Math.max(2 * grid.pitchX, 24);
  const legend = 4 * Math.min(Math.max(grid.pitchY * 0.6, 11), 22); // the legend's box under the board (render)
  const x = Math.max(0, Math.floor(grid.left - margin));
  const y = Math.max(0, Math.floor(grid.top - 1.5 * margin)); // games often draw the mine counter above the board
  const bottom = Math.min(height, Math.ceil(grid.top + grid.rows * grid.pitchY + margin + legend));
  // at least 4:3, widened to the right, where the legend may run past a narrow board
  const right = Math.min(
    width,
    Math.max(Math.ceil(grid.left + grid.cols * grid.pitchX + margin), x + Math.ceil(((bottom - y) * 4) / 3)),
  );
  return { x, y, width: right - x, height: bottom - y };
}

function layout() {
  const img = $('annotated');
  const picture = $('picture');
  const v = view();
  const room = picture.parentElement.clientWidth;
  const scale = Math.min(room / v.width, (window.innerHeight * 0.8) / v.height, 3);
  state.view = { ...v, scale };
  picture.style.width = `${Math.round(v.width * scale)}px`;
  picture.style.height = `${Math.round(v.height * scale)}px`;
  img.style.width = `${img.naturalWidth * scale}px`;
  img.style.left = `${-v.x * scale}px`;
  img.style.top = `${-v.y * scale}px`;
  img.classList.toggle('pixelated', scale >= 1.5);
  hideTip();
}

/** The cell under image pixel (x, y), or null; grids with per-column / per-row edges use them. */
function cellAt(grid, x, y) {
  const index = (edges, origin, pitch, count, at) => {
    const i = edges ? edges.findLastIndex((e) => e <= at) : Math.floor((at - origin) / pitch);
    const start = edges ? edges[i] : origin + i * pitch;
    return i >= 0 && i < count && at < start + pitch ? i : -1;
  };
  const col = index(grid.lefts, grid.left, grid.pitchX, grid.cols, x);
  const row = index(grid.tops, grid.top, grid.pitchY, grid.rows, y);
  return row < 0 || col < 0 ? null : [row, col];
}

$('picture').addEventListener('mousemove', (event) => {
  const result = state.result;
  if (!result || !result.grid || !state.view) return;
  const box = $('picture').getBoundingClientRect();
  const { x: vx, y: vy, scale } = state.view;
  const cell = cellAt(result.grid, vx + (event.clientX - box.left) / scale, vy + (event.clientY - box.top) / scale);
  const ch = cell && result.board[cell[0]][cell[1]];
  if (!cell || !'.?F'.includes(ch)) return hideTip();
  showTip(cell, ch, event.clientX - box.left, event.clientY - box.top);
});
$('picture').addEventListener('mouseleave', hideTip);

function showTip(cell, ch, px, py) {
  const { grid } = state.result;
  const { x: vx, y: vy, scale } = state.view;
  const cursor = $('cursor');
  const left = grid.lefts ? grid.lefts[cell[1]] : grid.left + cell[1] * grid.pitchX;
  const top = grid.tops ? grid.tops[cell[0]] : grid.top + cell[0] * grid.pitchY;
  Object.assign(cursor.style, {
    left: `${(left - vx) * scale}px`,
    top: `${(top - vy) * scale}px`,
    width: `${grid.pitchX * scale}px`,
    height: `${grid.pitchY * scale}px`,
  });
  cursor.hidden = false;
  const [title, body] = tipText(cell, ch);
  const tip = $('tip');
  tip.replaceChildren(line('strong', title), ...(body ? [line('p', body)] : []));
  tip.hidden = false;
  const stage = $('picture').getBoundingClientRect();
  const room = document.documentElement.clientWidth - stage.left - px - 24;
  tip.style.left = `${room < tip.offsetWidth ? px - tip.offsetWidth - 16 : px + 16}px`;
  tip.style.top = `${py + 16}px`;
}

function hideTip() {
  $('tip').hidden = true;
  $('cursor').hidden = true;
}

/** Title and words for a hidden (or flagged) cell: certain mine / safe and why, or its mine probability. */
function tipText(cell, ch) {
  const key = String(cell);
  const name = cellName(cell) + (ch === 'F' ? ' (flag)' : '');
  const result = state.result;
  if (result.status === 'inconsistent')
    return [`${name}: no probability`, 'The board is inconsistent, so nothing about this cell can be proven.'];
  const why = result.explanations[key];
  const plain = (text) =>
    text.replace('(give --mines)', '(enter the total mines)').replace('(--trust-flags)', '(trust flags is on)');
  if (state.mines.has(key)) return [`${name}: certainly a mine`, plain(why || '')];
  if (state.safe.has(key)) return [`${name}: certainly safe`, plain(why || '')];
  if ((result.flags.trusted || []).some((c) => String(c) === key)) return [`${name}: trusted as a mine`, ''];
  const p = state.odds.get(key);
  if (p === null || p === undefined)
    return [
      `${name}: mine probability unknown`,
      result.probabilities
        ? 'Cells away from the numbers get a probability only with the total mine count: enter it above.'
        : 'No probabilities were computed for this board.',
    ];
  const guess = result.bestGuess && String(result.bestGuess) === key ? ' — the best guess' : '';
  return [
    `${name}: ${percent(p)} chance of a mine${guess}`,
    'Not certain: some layouts that fit the counts put a mine here, some do not.',
  ];
}
