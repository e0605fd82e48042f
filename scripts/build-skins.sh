#!/usr/bin/env bash
# Rebuilds the built-in skins in skins/ from the captures in fixtures/<game>/learn/ (games played here
# with ../shared/tools/live, seed 1). Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
learn() {
  local name=$1 game=$2; shift 2
  local images=() boards=()
  for n in "$@"; do images+=("fixtures/$game/learn/s1-$n.png"); boards+=(--board "fixtures/$game/learn/s1-$n.board.txt"); done
  rm -rf "skins/$name"
  node bin/mine-assist.js learn "${images[@]}" "${boards[@]}" --name "$name" --out "skins/$name"
}
learn xdemineur xdemineur 01 02 03 04 05
learn xbomb xbomb 01 02 03 04 05
learn ace-minesweeper ace-minesweeper 01 02 03 04 05
learn gnome-mines-classic gnome-mines 01 04
learn gnome-mines-default gnome-mines 02
learn gnome-mines-bgcolors gnome-mines 03 05
learn kmines-classic kmines 02 04
learn kmines-default kmines 01 05
# kmines 'green' (s1-03) has no skin yet: its board is not located (see README).
# each skin's mine counter: its place and glyphs (learn rebuilt the folders without them)
node scripts/learn-counters.js
# lost-game cells (* and X) from the seed 3 losses in fixtures/<game>/lost/
node scripts/learn-lost.js
