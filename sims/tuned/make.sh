#!/usr/bin/env bash
# Re-tune cells of the shipped tuned players (sims/tuned/tuned.toml): one `unocli tune` per rule preset and
# table size, against a field of `basic`. Each search races the space's sample, every preset and the field,
# then searches locally; its winner ships only if it beats basic, smart and strong on fresh deals, and
# benchmarks/verify_tuned.py --adopt puts it in tuned.toml only then (the entry that was there stays
# otherwise: it is the best of those presets, or an earlier winner that was verified on fresh deals).
# Rerun: sims/tuned/make.sh SPACE PRESET-PLAYERS...   e.g. sims/tuned/make.sh basic official-2 party-2
# (two to five minutes a cell on a shared machine); then python benchmarks/verify_tuned.py checks the file.
set -euo pipefail
cd "$(dirname "$0")/../.."
unocli=${UNOCLI:-unocli}
python=${PYTHON:-python}
seed=${SEED:-2027}  # a second attempt at a cell takes another seed: new search deals and new fresh deals
space=$1
shift
mkdir -p sims/tuned/cells
for cell in "$@"; do
    rules=${cell%-*}
    players=${cell##*-}
    name="tuned-$rules-$players"
    out="sims/tuned/cells/$name.toml"
    "$unocli" tune "sims/spaces/$space.toml" --rules "$rules" --players "$players" --field basic --seed "$seed" \
        --first 1000 --max-deals 16000 --fresh 50000 --name "$name" --quiet -o "sims/tuned/cells/.$name.toml" >/dev/null
    mv "sims/tuned/cells/.$name.toml" "$out"
    "$python" benchmarks/verify_tuned.py --adopt "$out"
done
