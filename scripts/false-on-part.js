// @ts-check
'use strict';

/**
 * A board read at another size than the truth's (a part of it, or more) still has its deductions checked:
 * placed where its known cells agree best with the truth; a deduction about a cell off the true board is
 * false. @param {any} b @param {any} truth @param {{mines: string[], safe: string[]}} d @param {Set<string>} mines
 */
function falseOnPart(b, truth, d, mines) {
  let best = { agree: -1, dr: 0, dc: 0 };
  for (let dr = -b.rows + 1; dr < truth.rows; dr++) {
    for (let dc = -b.cols + 1; dc < truth.cols; dc++) {
      let agree = 0;
      for (let r = 0; r < b.rows; r++)
        for (let c = 0; c < b.cols; c++) {
          if (b.cells[r][c] !== '.' && truth.cells[r + dr]?.[c + dc] === b.cells[r][c]) agree++;
        }
      if (agree > best.agree) best = { agree, dr, dc };
    }
  }
  const moved = (/** @type {string} */ n) => {
    const [, r, c] = /r(\d+)c(\d+)/.exec(n) ?? [];
    const [tr, tc] = [Number(r) + best.dr, Number(c) + best.dc];
    return tr >= 0 && tc >= 0 && tr < truth.rows && tc < truth.cols ? `r${tr}c${tc}` : null;
  };
  const wrong =
    d.mines.filter((n) => {
      const m = moved(n);
      return !m || !mines.has(m);
    }).length +
    d.safe.filter((n) => {
      const m = moved(n);
      return !m || mines.has(m);
    }).length;
  return { dr: best.dr, dc: best.dc, false: wrong, deductions: d.mines.length + d.safe.length };
}

module.exports = { falseOnPart };
