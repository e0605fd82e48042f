#!/usr/bin/python3
"""Screenshots of question marks ('?') and, after losing on purpose, of wrong flags ('!').

usage: capture-marks.py GAME VARIANT_INDEX OUTDIR [--display N] [--seed S]
Starts GAME (../shared/tools/live variants, 1-based index; GNOME Mines and KMines with question marks turned
on), opens the board with a first click (a new game when that click loses: ace has no first-click safety),
right-clicks some hidden cells once (a flag) and some twice (a question mark, where the game has them), and
writes OUTDIR/<game>-v<index>-marks.png with a .json (the grid; `cells`: [row, col, 'F' or '?'] as placed;
`noQuestion`: cells that came back hidden after two right-clicks, i.e. the game has no '?'). Then it clears the
question marks, flags a few more hidden cells at random (some are wrong), clicks hidden cells until a mine goes
off, waits for the game to settle and writes <game>-v<index>-lost.png with a .json (`flags`: every flagged cell;
`changed`: flagged cells whose pixels are no longer the flag tile; `wrong`: the same, i.e. the wrong flags, except
for GNOME Mines (null), which redraws every flag after a loss; `clicked`: the click that lost). Check by eye.
Cells are told apart by an exact hash of their inner pixels (mslive.Grid.keys), as the harness does.
"""
import json, os, random, sys, time
from collections import Counter
import numpy as np
from PIL import Image
from live_game import display_option, started_game
import mslive


class GnomeMinesMarks(mslive.GnomeMines):
    """GNOME Mines with `use-question-marks=true` (the harness writes false into the keyfile before it starts)."""

    def launch(self):
        spawn = self.xs.spawn

        def with_marks(argv, *args, **kwargs):
            keyfile = os.path.join(self.xs.home, '.config', 'glib-2.0', 'settings', 'keyfile')
            with open(keyfile) as fh:
                text = fh.read()
            with open(keyfile, 'w') as fh:
                fh.write(text.replace('use-question-marks=false', 'use-question-marks=true'))
            return spawn(argv, *args, **kwargs)

        self.xs.spawn = with_marks
        try:
            super().launch()
        finally:
            del self.xs.spawn


class KMinesMarks(mslive.KMines):
    """KMines with `[General] question mark=true`."""

    def _write_cfg(self, theme):
        super()._write_cfg(theme)
        cfg = os.path.join(self.xs.home, '.config', 'kminesrc')
        with open(cfg) as fh:
            text = fh.read()
        with open(cfg, 'w') as fh:
            fh.write(text.replace('question mark=false', 'question mark=true'))


mslive.GAMES['gnome-mines'] = GnomeMinesMarks   # live_game's GAMES is this same dict
mslive.GAMES['kmines'] = KMinesMarks


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def capture(xs, g):
    """A screenshot whose board no longer changes (mouse parked)."""
    xs.park_mouse()
    time.sleep(max(g.settle, 0.3))
    x, y, w, h = g.grid.bbox()
    img = xs.screenshot()
    for _ in range(20):
        time.sleep(0.3)
        img2 = xs.screenshot()
        if np.array_equal(img[y:y + h, x:x + w], img2[y:y + h, x:x + w]):
            return img2
        img = img2
    raise mslive.HarnessError('board never became stable')


def click(xs, g, r, c, button):
    x, y = g.grid.center(r, c)
    xs.click(x, y, button)
    time.sleep(g.settle)


def lost(g, before, after, hidden, clicked):
    """True when a left click on `clicked` lost: what changed is not an area opened from it (mines shown
    elsewhere), or every hidden cell changed (xbomb uncovers the board, GNOME Mines darkens it)."""
    cov = {(r, c) for r in range(g.rows) for c in range(g.cols) if before[r][c] in hidden}
    changed = {p for p in cov if after[p[0]][p[1]] != before[p[0]][p[1]]}
    if changed == cov:
        return True
    seen, todo = {clicked}, [clicked]
    while todo:
        r, c = todo.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                n = (r + dr, c + dc)
                if n in changed and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return not changed <= seen


def wrong_flags(game, changed):
    """The flags drawn as wrong after the loss: those no longer drawn as the flag tile. GNOME Mines redraws every
    flag after a loss (seen here: a wrong one on a red cell in `classic` and `bgcolors`, a right one darkened or
    grey; in `default` wrong ones stay red on a darkened cell and a right one turns grey), so there it is left to
    the eye (null)."""
    return None if game == 'gnome-mines' else changed


def save(xs, img, out, name, **data):
    Image.fromarray(img).save(os.path.join(out, name + '.png'))
    with open(os.path.join(out, name + '.json'), 'w') as fh:
        json.dump(data, fh, indent=1)
    print('wrote', name, {k: v for k, v in data.items() if k != 'board'})


def opened(xs, g, rng):
    """Opens the board with a first click; None when that click lost."""
    img = capture(xs, g)
    keys = g.grid.keys(img)
    counts = Counter(k for row in keys for k in row)
    hidden = set(counts) if g.needs_first_click else {counts.most_common(1)[0][0]}
    if g.needs_first_click:
        r, c = g.rows // 2 + rng.randint(-1, 1), g.cols // 2 + rng.randint(-1, 1)
        click(xs, g, r, c, 1)
        img = capture(xs, g)
        after = g.grid.keys(img)
        if lost(g, keys, after, hidden, (r, c)):
            return None
        keys = after
    return img, keys, hidden


def main():
    game, idx, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rng = random.Random(int(option('--seed', time.time_ns() % 100000)))
    os.makedirs(out, exist_ok=True)
    name = '%s-v%d' % (game, idx)
    for attempt in range(12):
        with started_game(game, idx, display_option(sys.argv, 4), settle=0.8) as (xs, g):
            start = opened(xs, g, rng)
            if start is None:
                print('first click lost, new game (attempt %d)' % (attempt + 1))
                continue
            img, keys, hidden = start
            small = g.rows * g.cols < 100
            free = [(r, c) for r in range(g.rows) for c in range(g.cols) if keys[r][c] in hidden]
            rng.shuffle(free)
            n = 3 if small else 5
            flags, questions, no_question = free[:n], free[n:2 * n], []
            for r, c in flags:
                click(xs, g, r, c, 3)
            for r, c in questions:
                click(xs, g, r, c, 3)
                click(xs, g, r, c, 3)
            img = capture(xs, g)
            keys = g.grid.keys(img)
            flag_keys = {keys[r][c] for r, c in flags}
            assert not flag_keys & hidden, 'a right click did not flag'
            cells = [[r, c, 'F'] for r, c in flags]
            for r, c in questions:
                if keys[r][c] in hidden:
                    no_question.append([r, c])
                elif keys[r][c] in flag_keys:
                    raise mslive.HarnessError('two right clicks left a flag at %d,%d' % (r, c))
                else:
                    cells.append([r, c, '?'])
            save(xs, img, out, name + '-marks', program=game, variant=idx, cells=cells, noQuestion=no_question,
                 board=g.grid.as_dict())
            # the lost game: no question marks left, more flags (random, so some are wrong), then lose
            for r, c, label in cells:
                if label == '?':
                    click(xs, g, r, c, 3)
            free = [p for p in free[2 * n:]]
            more = free[:n + 1]
            for r, c in more:
                click(xs, g, r, c, 3)
            flagged = flags + more
            img = capture(xs, g)
            keys = g.grid.keys(img)
            assert all(keys[r][c] in hidden for r, c, label in cells if label == '?'), 'a question mark stayed'
            flag_keys = {keys[r][c] for r, c in flagged}
            assert not flag_keys & hidden, 'a right click did not flag'
            targets = [p for p in free[n + 1:]]
            clicked = None
            for r, c in targets:
                if keys[r][c] not in hidden:
                    continue
                click(xs, g, r, c, 1)
                img2 = capture(xs, g)
                keys2 = g.grid.keys(img2)
                if lost(g, keys, keys2, hidden, (r, c)):
                    clicked = [r, c]
                    break
                keys = keys2
            if clicked is None:
                raise mslive.HarnessError('never lost')
            time.sleep(8 if game == 'kmines' else 1.5)   # KMines' "You have lost." popup goes away by itself
            img = capture(xs, g)
            keys = g.grid.keys(img)
            changed = [[r, c] for r, c in flagged if keys[r][c] not in flag_keys]
            save(xs, img, out, name + '-lost', program=game, variant=idx, flags=[list(p) for p in flagged],
                 changed=changed, wrong=wrong_flags(game, changed),
                 clicked=clicked, board=g.grid.as_dict())
            return
    raise SystemExit('the first click lost 12 times')


main()
