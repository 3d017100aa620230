#!/usr/bin/env bash
# Rerun the mutants a mutation run left alive (survived, no tests; a timeout is a kill) against a list of tests,
# one mutant at a time, in the group's scratch copy (mutation/run.sh made it). mutmut itself does not
# retest a mutant whose function is unchanged, so this is how tests written after a run are counted:
#
#   mutation/recheck.sh engine tests/test_engine_mutants.py tests/test_situational_knobs.py
#
# It prints one line per mutant (killed / survived) and a summary; the survivors' names go to
# $MUTATION_DIR/survivors.txt (see them with `mutmut show NAME` in that folder), the killed ones to
# recheck-killed.txt there, which the group's score (mutation/score.py, printed last) counts as killed.
#
#   mutation/recheck.sh tune tests/test_tune_search_mutants.py   # then the score of the group's mutants
#   RECHECK_ONLY='*x_search_* *x_tune_*' mutation/recheck.sh tune tests/test_tune_search_mutants.py  # some only
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
group=${1:?usage: mutation/recheck.sh stats|check|engine|tune|compare|ladder|report TEST...}
shift
[ $# -gt 0 ] || { echo "name the tests to run against the survivors" >&2; exit 2; }
work=${MUTATION_DIR:-/tmp/unocli-mutation-$group}
cd "$work"
# The tests as they are in the work tree now (the mutated sources in mutants/ stay as mutmut made them).
for t in "$@"; do cp "$root/$t" "mutants/$t"; done
cp "$root/tests/"{conftest,scenario_helpers,strategies,naive}.py mutants/tests/ 2>/dev/null || true
names=$("$root/.venv/bin/mutmut" results 2>/dev/null | awk -F': ' '/: (survived|no tests)$/ {gsub(/^ +/, "", $1); print $1}')
killed=0; alive=0; : > survivors.txt
[ -n "${RECHECK_ONLY:-}" ] || : > recheck-killed.txt  # a partial recheck keeps the kills of the last full one
cd mutants
# The tests must pass on the unmutated code first, or every mutant would look killed.
if ! env -u MUTANT_UNDER_TEST "$root/.venv/bin/python" -m pytest -q -p no:cacheprovider "$@" > ../recheck-baseline.log 2>&1; then
    echo "the tests fail without any mutant (see $work/recheck-baseline.log)" >&2; exit 1
fi
for name in $names; do
    # RECHECK_ONLY="GLOB ...": only the alive mutants whose names match (the others stay as they are)
    if [ -n "${RECHECK_ONLY:-}" ]; then
        match=false
        for g in $RECHECK_ONLY; do [[ $name == $g ]] && match=true; done
        $match || continue
    fi
    if MUTANT_UNDER_TEST="$name" timeout 600 "$root/.venv/bin/python" -m pytest -x -q -p no:cacheprovider "$@" > ../recheck-one.log 2>&1; then
        alive=$((alive + 1)); echo "$name" >> ../survivors.txt; echo "survived  $name"
    else
        # the test that caught it, so a surprising kill can be looked at (mutmut show NAME; rerun that test)
        killed=$((killed + 1)); echo "$name" >> ../recheck-killed.txt; echo "killed    $name  by $(grep -m1 -oE '^(FAILED|ERROR) [^ ]+' ../recheck-one.log || echo 'exit code')"
    fi
done
echo "rechecked $((killed + alive)): $killed killed, $alive survived (names in $work/survivors.txt)"
# The group's score with these kills (its own globs, as mutation/run.sh uses them when given none).
cd "$work"
mapfile -t globs < <(bash "$root/mutation/run.sh" --globs "$group")
"$root/.venv/bin/python" "$root/mutation/score.py" ${globs[@]+"${globs[@]}"}
