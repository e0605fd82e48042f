#!/usr/bin/python3
"""Screenshots of a fresh board with the mouse over one hidden cell (hover) and pressing one (held down).

usage: capture-hover.py GAME VARIANT_INDEX OUTDIR [--display N]
Starts GAME (../shared/tools/live variants, 1-based index) and writes OUTDIR/<game>-v<index>-hover.png and
-pressed.png (full screen, before any move) with a .json (the cell under the mouse, the grid).
"""
import json, os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'tools', 'live'))
from PIL import Image
from mslive import XSession, GAMES
from run_live import VARIANTS, SCREEN

def main():
    game, idx, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    display = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == '--display' else None
    os.makedirs(out, exist_ok=True)
    v = VARIANTS[game][idx - 1]
    xs = XSession(SCREEN[0], SCREEN[1], display=display, bg='#2e5d8a').start()
    try:
        g = GAMES[game](xs, v)
        g.launch()
        xs.park_mouse()
        time.sleep(0.8)
        g.grid = g.find_grid(xs.screenshot())
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
        g.close()
    finally:
        xs.stop()

main()
