#!/usr/bin/env bash
# The four one-line bugs issue 29 planted that the default run once missed, each applied alone to a scratch
# copy of the project and run against the default (not slow) tests of the files that exercise that code;
# prints, per bug, the tests that fail (every bug must make at least one fail):
#
#   mutation/planted.sh            # all four
#   mutation/planted.sh skill-sum  # one: race-replay, race-alpha, skill-sum or comeback-complement
#
# Scratch copies in $PLANTED_DIR (default /tmp/unocli-planted-BUG); the work tree is not touched.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# bug: file | the line as it is (a fixed string that must occur once) | the line with the bug | tests
bugs() {
    cat <<'EOF'
race-replay|unocli/study/tune.py|deal_gains(table, cand.policy, begin, deals)|deal_gains(table, cand.policy, start, deals)|tests/test_tune_race.py tests/test_tune_mutants.py tests/test_tune.py tests/test_tune_search.py
race-alpha|unocli/study/tune.py|holm_drops(pvalues, alpha)|[p < alpha for p in pvalues]|tests/test_tune_race.py tests/test_tune_mutants.py tests/test_tune.py tests/test_tune_search.py
skill-sum|unocli/analysis/skill.py|float((mine * mine).sum()), n)|float(mine.sum()), n)|tests/test_report_skill.py tests/test_values_report.py
comeback-complement|unocli/analysis/stacking.py|_level(lost, reached, "comeback")|_level(reached - lost, reached, "comeback")|tests/test_report_stacking.py tests/test_values_report.py
EOF
}

status=0
while IFS='|' read -r name file before after tests; do
    [ $# -eq 0 ] || [ "$1" = "$name" ] || continue
    work=${PLANTED_DIR:-/tmp/unocli-planted-$name}
    rm -rf "$work" && mkdir -p "$work"
    git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$work"
    "$root/.venv/bin/python" - "$work/$file" "$before" "$after" <<'PY'
import sys
path, before, after = sys.argv[1:]
text = open(path).read()
if text.count(before) != 1:
    sys.exit(f"{path}: the line to plant the bug in occurs {text.count(before)} times, not once: {before!r}")
open(path, "w").write(text.replace(before, after))
PY
    # shellcheck disable=SC2086  # the test list is a list of words
    (cd "$work" && "$root/.venv/bin/python" -m pytest -q -p no:cacheprovider -m "not slow" $tests > planted.log 2>&1) || true
    failed=$(grep -oE '^(FAILED|ERROR) [^ ]+' "$work/planted.log" | sed 's/^[A-Z]* //' || true)
    if [ -n "$failed" ]; then
        echo "$name: caught by"; echo "$failed" | sed 's/^/    /'
    else
        echo "$name: NOT CAUGHT (see $work/planted.log)"; status=1
    fi
done < <(bugs)
exit $status
