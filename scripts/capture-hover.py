#!/usr/bin/python3
"""Screenshots of a fresh board with the mouse over one hidden cell (hover) and pressing one (held down).

usage: capture-hover.py GAME VARIANT_INDEX OUTDIR [--display N]
Starts GAME (../shared/tools/live variants, 1-based index) and writes OUTDIR/<game>-v<index>-hover.png and
-pressed.png (full screen, before any move) with a .json (the cell under the mouse, the grid).
"""
import json, os, sys, time
from PIL import Image
from live_game import display_option, started_game

def main():
    game, idx, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    with started_game(game, idx, display_option(sys.argv, 4), settle=0.8) as (xs, g):
        r, c = g.rows // 2, g.cols // 3
        cx, cy = g.grid.center(r, c)
        for state in ('hover', 'pressed'):
            xs.xdotool('mousemove', int(cx), int(cy))
            time.sleep(0.5)
            if state == 'pressed':
                xs.xdotool('mousedown', 1)
                time.sleep(0.5)
            name = '%s-v%d-%s' % (game, idx, state)
            Image.fromarray(xs.screenshot()).save(os.path.join(out, name + '.png'))
            with open(os.path.join(out, name + '.json'), 'w') as fh:
                json.dump(dict(program=game, variant=idx, state=state, cell=[r, c], board=g.grid.as_dict()), fh)
            if state == 'pressed':
                xs.xdotool('mousemove', 2, 2)
                time.sleep(0.2)
                xs.xdotool('mouseup', 1)

main()
