#!/usr/bin/python3
"""Screenshots of each game's mine counter at every flag count from 0 up (the counter glyphs for a skin).

usage: capture-counters.py GAME VARIANT_INDEX FLAGS OUTDIR [--display N]
Starts GAME (../shared/tools/live variants, 1-based index), then flags FLAGS covered cells one at a time,
cropping the game window after each: OUTDIR/<game>-v<index>-f<flags>.png and one .json with mines/flags.
"""
import json, os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'tools', 'live'))
from PIL import Image
from mslive import XSession, GAMES
from run_live import VARIANTS, SCREEN

def main():
    game, idx, nflags, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    display = int(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[5] == '--display' else None
    os.makedirs(out, exist_ok=True)
    v = VARIANTS[game][idx - 1]
    xs = XSession(SCREEN[0], SCREEN[1], display=display, bg='#2e5d8a').start()
    try:
        g = GAMES[game](xs, v)
        g.launch()
        img = xs.screenshot()
        g.grid = g.find_grid(img)
        x, y, w, h = g.win[2:6]
        cells = [(r, c) for r in range(g.rows) for c in range(g.cols)][::max(1, g.rows * g.cols // (nflags + 3))]
        for f in range(nflags + 1):
            xs.park_mouse()
            time.sleep(0.6)
            shot = xs.screenshot()
            name = '%s-v%d-f%02d' % (game, idx, f)
            Image.fromarray(shot[y:y + h, x:x + w]).save(os.path.join(out, name + '.png'))
            with open(os.path.join(out, name + '.json'), 'w') as fh:
                json.dump(dict(program=game, variant=idx, mines=g.nmines, flags=f, window=[x, y, w, h],
                               board=g.grid.as_dict()), fh)
            if f < nflags:
                r, c = cells[f]
                cx, cy = g.grid.center(r, c)
                xs.click(cx, cy, 3)
                time.sleep(g.settle)
        g.close()
    finally:
        xs.stop()

main()
