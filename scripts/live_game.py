"""One game of ../shared/tools/live started for a capture script (capture-counters.py, capture-hover.py)."""
import os, sys, time
from contextlib import contextmanager
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'tools', 'live'))
from mslive import XSession, GAMES
from run_live import VARIANTS, SCREEN

def display_option(argv, at):
    """N from `--display N` at argv[at], else None (the first free display)."""
    return int(argv[at + 1]) if len(argv) > at + 1 and argv[at] == '--display' else None

@contextmanager
def started_game(game, idx, display, settle=0.0):
    """GAME's variant IDX (1-based) on a private X display, its grid found (after `settle` s, mouse parked)."""
    xs = XSession(SCREEN[0], SCREEN[1], display=display, bg='#2e5d8a').start()
    try:
        g = GAMES[game](xs, VARIANTS[game][idx - 1])
        g.launch()
        if settle:
            xs.park_mouse()
            time.sleep(settle)
        g.grid = g.find_grid(xs.screenshot())
        yield xs, g
        g.close()
    finally:
        xs.stop()
