#!/usr/bin/env bash
# Regenerate the committed full-size reports of reports/ (the debates, the house rules under search, skill, the index).
#
# The seven experiments run as one report into a new folder (35-37 minutes of wall clock, 3,600-3,700 CPU-seconds, on two cores
# beside a test run, 2026-12-06; most of it the house rules under search), which then takes the place of the seven
# folders and the index here. reports/tune/ (unocli tune) and
# reports/ladder/ (unocli ladder) are made by their own commands and are left as they are.
# Usage: reports/make.sh [UNOCLI]   (default .venv/bin/unocli)
set -euo pipefail
cd "$(dirname "$0")/.."
unocli=${1:-.venv/bin/unocli}
out=$(mktemp -d reports-run.XXXXXX)
trap 'rm -rf "$out"' EXIT
"$unocli" report sims/game-length.toml sims/bluff.toml sims/stacking.toml sims/seat-advantage.toml \
    sims/house-rules.toml sims/house-rules-search.toml sims/skill.toml --out "$out/run"
for name in game-length bluff stacking seat-advantage house-rules house-rules-search skill; do
    rm -rf "reports/$name"
    mv "$out/run/$name" "reports/$name"
done
# The run's manifest is left out: reports/ also holds what other commands wrote (tune/, ladder/), so it is
# not one run's folder, and `unocli report --out reports` must keep refusing to replace it.
mv "$out/run/README.md" "$out/run/index.html" reports/
