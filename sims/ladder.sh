#!/bin/sh
# The shipped ladders (reports/ladder/): every rule set in RULES at 2, 4 and 6 players. The round robin: random,
# basic, smart, strong and the cell's tuned player from sims/tuned/tuned.toml, on GAMES deals per table, and again
# as matches on MATCH_GAMES deals. Lone only (each against a field of every round-robin player, on the first
# LONE_GAMES deals): search at budgets 128 and 512 (the default, the strongest player unocli has: docs/search.md),
# and peek at 16 (the clairvoyant bound, not a player).
# Run from the repository's root.
# Usage: sh sims/ladder.sh [GAMES] [RULES...]   (default: 10000 deals per table, all twelve rule presets)
# LONE_GAMES (default 800) and MATCH_GAMES (default 1000) from the environment.
# Time (docs/ladder.md): 165-340 s of wall clock a cell on 2 shared cores (official, stacking, seven-o, ...), most of it
# the searches' rollouts; party and draw-until-playable cells take several times longer.
set -e
GAMES=${1:-10000}
[ $# -gt 0 ] && shift
RULES=${*:-draw-until-playable free-plus4 jump-in no-action-finish no-challenge official party seven-o stack-any stack-plus2 stack-same stacking}
LONE_GAMES=${LONE_GAMES:-800}
MATCH_GAMES=${MATCH_GAMES:-1000}
[ "$LONE_GAMES" -gt "$GAMES" ] && LONE_GAMES=$GAMES
UNOCLI=${UNOCLI:-unocli}  # PYTHON too, for the index (default python3)
for rules in $RULES; do
  for players in 2 4 6; do
    $UNOCLI ladder --rules "$rules" --players "$players" --policies sims/tuned/tuned.toml \
      --policy random --policy basic --policy smart --policy strong --policy "tuned-$rules-$players" \
      --lone search:budget=128 --lone search:budget=512 --lone peek:budget=16 \
      --games "$GAMES" --lone-games "$LONE_GAMES" --match-games "$MATCH_GAMES" --seed 2026 \
      --out "reports/ladder/$rules-$players"
  done
done
${PYTHON:-python3} -c "from unocli.report.ladder import write_index; write_index('reports/ladder')"
