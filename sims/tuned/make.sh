#!/usr/bin/env bash
# Make the shipped tuned players (sims/tuned/tuned.toml): one `unocli tune` per rule preset and table size,
# each against a field of `basic`, from the space sims/spaces/strong.toml. Each policy in tuned.toml starts
# with the exact command that made it and its re-measured gain. Rerun: sims/tuned/make.sh [PRESET...]
# (one to three minutes per cell on 2 cores, about an hour for all 36; cells already made are kept).
set -euo pipefail
cd "$(dirname "$0")/../.."
unocli=${UNOCLI:-unocli}
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
    presets=(official stack-plus2 stack-same stacking stack-any seven-o jump-in draw-until-playable no-action-finish free-plus4 no-challenge party)
fi
mkdir -p sims/tuned/cells
for players in 4 2 6; do
    for rules in "${presets[@]}"; do
        name="tuned-$rules-$players"
        out="sims/tuned/cells/$name.toml"
        [ -s "$out" ] && continue
        "$unocli" tune sims/spaces/strong.toml --rules "$rules" --players "$players" --field basic --seed 2026 \
            --first 1000 --max-deals 16000 --fresh 20000 --name "$name" -o "sims/tuned/cells/.$name.toml" >/dev/null
        mv "sims/tuned/cells/.$name.toml" "$out"
    done
done
{
    echo "# Tuned players, one per rule preset and table size, each the winner of \`unocli tune\` against a field"
    echo "# of basic players (sims/tuned/make.sh made this file; each entry starts with its command and gain)."
    echo "# Use: unocli simulate --policies sims/tuned/tuned.toml --rules stacking --seat 0=tuned-stacking-4 --policy basic"
    for f in sims/tuned/cells/*.toml; do echo; cat "$f"; done
} > sims/tuned/tuned.toml
