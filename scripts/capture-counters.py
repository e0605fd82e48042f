#!/usr/bin/python3
"""Screenshots of each game's mine counter at every flag count from 0 up (the counter glyphs for a skin).

usage: capture-counters.py GAME VARIANT_INDEX FLAGS OUTDIR [--display N]
Starts GAME (../shared/tools/live variants, 1-based index), then flags FLAGS covered cells one at a time,
cropping the game window after each: OUTDIR/<game>-v<index>-f<flags>.png and one .json with mines/flags.
"""
import json, os, sys, time
from PIL import Image
from live_game import display_option, started_game

def main():
    game, idx, nflags, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    os.makedirs(out, exist_ok=True)
    with started_game(game, idx, display_option(sys.argv, 5)) as (xs, g):
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

main()
