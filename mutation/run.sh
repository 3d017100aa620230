#!/usr/bin/env bash
# Mutation testing of the Python layer with mutmut (pip install mutmut; configured in pyproject.toml
# [tool.mutmut]), one group of modules at a time, each against only the fast tests written for it:
#
#   mutation/run.sh stats    # unocli/study/stats.py   against tests/test_stats*.py
#   mutation/run.sh check    # unocli/balance/check.py against tests/test_check*.py
#   mutation/run.sh engine   # unocli/reference/{engine,decisions}.py against the scenario, policy,
#                            # match and trace tests and tests/test_engine_mutants.py
#   mutation/run.sh tune     # unocli/study/{tune,tune_file}.py against tests/test_tune*.py (the race, search and ship)
#   mutation/run.sh compare  # study/compare.py, run/quantities.py, run/shards.py against tests/test_compare*.py, test_stats.py
#   mutation/run.sh ladder   # the ladder's fit, intervals and shares, and the index of ladder folders
#                            # against tests/test_ladder_mutants.py and test_ladder.py's tests that play no game
#                            # (but its 40 s grid search: the hand-solved fits of test_ladder_mutants.py do its job)
#   mutation/run.sh report   # the report computations (below) against tests/test_values_report.py
#   mutation/run.sh engine 'unocli.reference.engine.x_play_match*'   # some mutants only (name globs)
#
# The tune, compare, ladder and report groups mutate only the functions that compute numbers (mutmut name globs, used
# when no globs are given), not prose, rendering, search-space parsing or option checks:
#   tune: study/tune.py deal_gains, gain_of, deal_schedule, holm_drops, Race (leader, ranking, games, estimate,
#         alive, all_gains), race, _eliminate, _halve, FreshCheck.beats_all, references, fresh_check, choose,
#         search, tune, iterate, candidates_table; study/tune_file.py pp, _share, read_verdicts.
#   compare: run/quantities.py quantity_matrix, is_binary, over_finished; run/shards.py run_pair_shard;
#            study/compare.py PairedSums.add, Comparison's mean / diff / both_finished / _counts / means /
#            boot_means / table, _widest.
#   ladder: study/ladder.py plan_tables, plan_lone_tables, LadderData's deals / table_deals / design /
#           by_policy / seats, deal_influence, anchor_index,
#           log_likelihood, _probabilities, Fit's se / interval / diff_se, fit_counts, _information,
#           _check_exists, fit, win_shares, ratings_frame (not play_ladder: it hands tables to the
#           shards, covered by test_ladder.py's command tests); report/ladder.py index, _count, _lead_text.
#   report: analysis/stacking.py contrast, _level, _diff, _comeback, field_rows, _changes,
#           strategy_rows (comeback chance, big-draw shares, the rule x strategy interaction),
#           _arm_rows, _stack_row (chain lengths); analysis/skill.py play_cell, _gap_row, _change_rows
#           (the clustered-by-deal share and edge, paired changes); analysis/bluff_grid.py fictitious_play,
#           pure_path, crossing, rate_bounds (best responses, break-even rates); analysis/house_rules_gap.py
#           gap_rules, skill_gaps; fields.py holds_everywhere, verdict_matrix.
#
# mutmut runs, for each mutant, only those of the group's tests that called the mutated function,
# but a group's whole test list runs once first; so a group is given its own copy of the project
# (MUTATION_DIR, default /tmp/unocli-mutation-GROUP) with [tool.mutmut] narrowed to it. Results are
# kept there: a rerun tests only new or changed mutants. One worker by default (MUTMUT_CHILDREN):
# the machine is shared. `mutmut results` (in that folder) lists survivors, `mutmut show NAME` one diff.
# A mutant's tests are stopped after (their measured time + 1 s) x MUTMUT_TIMEOUT_MULTIPLIER of wall
# time (default 40; mutmut's own 15 reports false timeouts when the run is niced on a busy machine).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
group=${1:?usage: mutation/run.sh stats|check|engine|tune|compare|ladder|report [MUTANT_GLOB...]}
shift
list_globs=false
if [ "$group" = --globs ]; then  # mutation/run.sh --globs GROUP: print the group's own globs, one a line
    list_globs=true; group=${1:?usage: mutation/run.sh --globs GROUP}; shift
fi
globs=()
case "$group" in
    stats)
        mutate='"unocli/study/stats.py"'
        tests='"tests/test_stats.py", "tests/test_stats_defaults.py", "tests/test_stats_edges.py"' ;;
    check)
        mutate='"unocli/balance/check.py"'
        tests='"tests/test_check_units.py", "tests/test_check_exit_codes.py", "tests/test_check.py"' ;;
    engine)
        mutate='"unocli/reference/engine.py", "unocli/reference/decisions.py"'
        tests='"tests/test_scenarios_turns.py", "tests/test_scenarios_house.py", "tests/test_scenarios_setup.py",
               "tests/test_scenarios_stuck.py", "tests/test_policy_definitions.py", "tests/test_match_target.py",
               "tests/test_trace.py", "tests/test_rules_policies.py", "tests/test_engine_mutants.py",
               "tests/test_situational_knobs.py", "tests/test_scenarios_counters.py"' ;;
    tune)
        mutate='"unocli/study/tune.py", "unocli/study/tune_file.py"'
        # but the two slowest tests (a hypothesis round trip through a written file, the CLI's chart: 24 of the
        # list's 50 s), which every mutant of the race would otherwise run before the one that kills it
        tests='"tests/test_tune_race.py", "tests/test_tune_search.py", "tests/test_tune_file.py", "tests/test_tune.py",
               "tests/test_tune_mutants.py", "tests/test_tune_search_mutants.py", "-k",
               "not test_any_name_and_policy_round_trip_through_the_written_file and not test_cli_writes_the_policy_table_and_chart"'
        G=unocli.study.tune F=unocli.study.tune_file
        globs=("$G.x_deal_gains_*" "$G.x_gain_of_*" "$G.x_deal_schedule_*" "$G.x_holm_drops_*" "$G.xǁRaceǁ*" "$G.x_race_*"
               "$G.x__eliminate_*" "$G.x__halve_*" "$G.xǁFreshCheckǁbeats_all_*" "$G.x_references_*" "$G.x_fresh_check_*"
               "$G.x_choose_*" "$G.x_search_*" "$G.x_tune_*" "$G.x_iterate_*" "$G.x_candidates_table_*"
               "$F.x_pp_*" "$F.x__share_*" "$F.x_read_verdicts_*") ;;
    compare)
        mutate='"unocli/study/compare.py", "unocli/run/quantities.py", "unocli/run/shards.py"'
        tests='"tests/test_compare.py", "tests/test_compare_mutants.py", "tests/test_stats.py"'
        C=unocli.study.compare Q=unocli.run.quantities S=unocli.run.shards
        globs=("$Q.x_quantity_matrix_*" "$Q.x_is_binary_*" "$Q.x_over_finished_*" "$S.x_run_pair_shard_*"
               "$C.xǁPairedSumsǁadd_*" "$C.xǁComparisonǁmean_*" "$C.xǁComparisonǁdiff_*" "$C.xǁComparisonǁboth_finished_*"
               "$C.xǁComparisonǁ_counts_*" "$C.xǁComparisonǁmeans_*" "$C.xǁComparisonǁboot_means_*"
               "$C.xǁComparisonǁtable_*" "$C.x__widest_*") ;;
    ladder)
        mutate='"unocli/study/ladder.py", "unocli/report/ladder.py"'
        tests='"tests/test_ladder_mutants.py", "tests/test_ladder.py", "tests/test_ladder_skill.py", "-k",
               "not command and not ladder_json and not bad_input and not refuses and not brute_force"'
        L=unocli.study.ladder R=unocli.report.ladder
        globs=("$L.x_plan_tables_*" "$L.xǁLadderDataǁdesign_*" "$L.xǁLadderDataǁby_policy_*" "$L.xǁLadderDataǁseats_*"
               "$L.x_anchor_index_*" "$L.x_log_likelihood_*" "$L.x__probabilities_*" "$L.xǁFitǁ*" "$L.x_fit_*"
               "$L.x__information_*" "$L.x__check_exists_*" "$L.x_win_shares_*" "$L.x_ratings_frame_*"
               "$L.x_plan_lone_tables_*" "$L.x_deal_influence_*" "$L.xǁLadderDataǁdeals_*" "$L.xǁLadderDataǁtable_deals_*"
               "$R.x_index_*" "$R.x__count_*" "$R.x__lead_text_*") ;;
    report)
        A=unocli.report.analyses N=unocli.analysis
        mutate='"unocli/analysis/stacking.py", "unocli/analysis/skill.py",
                "unocli/analysis/bluff_grid.py", "unocli/analysis/house_rules_gap.py", "unocli/report/analyses/fields.py"'
        tests='"tests/test_values_report.py"'
        globs=("$N.stacking.x_contrast_*" "$N.stacking.x__level_*" "$N.stacking.x__diff_*"
               "$N.stacking.x__comeback_*" "$N.stacking.x_field_rows_*" "$N.stacking.x__changes_*"
               "$N.stacking.x_strategy_rows_*" "$N.stacking.x__arm_rows_*" "$N.stacking.x__stack_row_*"
               "$N.skill.x_play_cell_*" "$N.skill.x__gap_row_*" "$N.skill.x__change_rows_*"
               "$N.bluff_grid.x_fictitious_play_*" "$N.bluff_grid.x_pure_path_*" "$N.bluff_grid.x_crossing_*"
               "$N.bluff_grid.x_rate_bounds_*" "$N.house_rules_gap.x_gap_rules_*" "$N.house_rules_gap.x_skill_gaps_*"
               "$A.fields.x_holds_everywhere_*" "$A.fields.x_verdict_matrix_*") ;;
    *) echo "unknown group: $group (stats, check, engine, tune, compare, ladder or report)" >&2; exit 2 ;;
esac
if $list_globs; then
    [ ${#globs[@]} -eq 0 ] || printf '%s\n' "${globs[@]}"
    exit 0
fi
work=${MUTATION_DIR:-/tmp/unocli-mutation-$group}
mkdir -p "$work"
# The tracked files as they are in the work tree (mutants/ in $work survives: incremental reruns).
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$work"
"$root/.venv/bin/python" - "$work/pyproject.toml" "$mutate" "$tests" <<'PY'
import os, re, sys
path, mutate, tests = sys.argv[1:]
text = open(path).read()
text = re.sub(r"^only_mutate = .*$", f"only_mutate = [{mutate}]", text, flags=re.M)
text = re.sub(r"^timeout_multiplier = .*\n", "", text, flags=re.M)
text = re.sub(r"^(process_isolation|log_to_file) = .*\n", "", text, flags=re.M)
# forkserver: one process imports pytest and collects the tests (numpy, pandas, scipy, numba, unocli) once and forks
# a worker per mutant; with "fork" every mutant's worker imports them again (about 2.5 s of CPU, 8 s on a busy machine).
text = text.replace("[tool.mutmut]\n", f"[tool.mutmut]\ntimeout_multiplier = {os.environ.get('MUTMUT_TIMEOUT_MULTIPLIER', '40')}\n"
                    f"process_isolation = \"{os.environ.get('MUTMUT_ISOLATION', 'forkserver')}\"\nlog_to_file = true\n")  # mutants/mutmut-debug.log
text = re.sub(r"^pytest_add_cli_args_test_selection = \[.*?\]", f"pytest_add_cli_args_test_selection = [{tests}]", text, flags=re.M | re.S)
open(path, "w").write(text)
PY
cd "$work"
# Name globs given on the command line, else the group's own (tune, ladder, report), else every mutant of its files.
[ $# -gt 0 ] || set -- ${globs[@]+"${globs[@]}"}
"$root/.venv/bin/mutmut" run --max-children "${MUTMUT_CHILDREN:-1}" "$@" || true
"$root/.venv/bin/mutmut" results
# The score: killed / all the group's mutants (mutation/score.py; a mutant not run is not killed).
"$root/.venv/bin/python" "$root/mutation/score.py" "$@"
