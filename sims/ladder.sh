#!/bin/sh
# The shipped ladders (reports/ladder/): every rule set in RULES at 2, 4 and 6 players, with random, basic,
# smart, strong and the cell's tuned player from sims/tuned/tuned.toml. Run from the repository's root.
# Usage: sh sims/ladder.sh [GAMES] [RULES...]   (default: 20000 deals per table, the official rules)
set -e
GAMES=${1:-20000}
[ $# -gt 0 ] && shift
RULES=${*:-official}
UNOCLI=${UNOCLI:-unocli}  # PYTHON too, for the index (default python3)
for rules in $RULES; do
  for players in 2 4 6; do
    $UNOCLI ladder --rules "$rules" --players "$players" --policies sims/tuned/tuned.toml \
      --policy random --policy basic --policy smart --policy strong --policy "tuned-$rules-$players" \
      --games "$GAMES" --seed 2026 --out "reports/ladder/$rules-$players"
  done
done
${PYTHON:-python3} -c "from unocli.report.ladder import write_index; write_index('reports/ladder')"
