# The summary of ./verbs test: counts the Surefire and launcher XML reports, checks the harness
# self-check (the canary) and decides the exit status. Pure decision over files and variables, so
# it can be tested with fake reports (verbs-testkit SummaryScriptTest).
#
# Sourced by scripts/test.sh, it only defines sum_attr, count_reports, harness_self_check and
# print_summary_and_exit, which read test.sh's variables: VERBS_ROOT, REPORTS_DIR, CANARY_DIR,
# run_unit, run_device, build_status, step_status, device_status, device_where, device_note,
# unit_seconds, device_seconds, and CI from the environment.
#
# Run directly, it sets those from its options and prints the summary:
#   bash scripts/summary.sh --root DIR [--unit] [--device] [--build-status N] [--step-status N]
#       [--device-status N] [--where TEXT] [--unit-seconds N] [--device-seconds N]
# Unit reports: DIR/*/target/surefire-reports/TEST-*.xml; device reports: DIR/target/device-reports
# (canary: its harness-canary/). --device-status defaults as in test.sh: the recorded
# launcher-exit, else the step status. --where defaults to "rxe VM". Exits 0 (green) or 1.
# shellcheck shell=bash

# The canary's class and the start of its failure message (verbs-testkit HarnessCanaryTest).
CANARY_CLASS=dev.panamaverbs.testkit.HarnessCanaryTest
CANARY_MARKER="harness canary: deliberate failure"

# Sums one attribute of the <testsuite> elements in the given XML reports.
sum_attr() {
    local attr=$1 total=0 n f
    shift
    for f in "$@"; do
        [ -f "$f" ] || continue
        for n in $(grep -o "<testsuite [^>]*" "$f" | grep -o " $attr=\"[0-9]*\"" | grep -o '[0-9]\+'); do
            total=$((total + n))
        done
    done
    echo "$total"
}

# Sets <prefix>_total/_failed/_skipped/_passed from the given reports.
count_reports() {
    local prefix=$1 total failed skipped
    shift
    total=$(sum_attr tests "$@")
    failed=$(( $(sum_attr failures "$@") + $(sum_attr errors "$@") ))
    skipped=$(sum_attr skipped "$@")
    printf -v "${prefix}_total" '%s' "$total"
    printf -v "${prefix}_failed" '%s' "$failed"
    printf -v "${prefix}_skipped" '%s' "$skipped"
    printf -v "${prefix}_passed" '%s' "$(( total - failed - skipped ))"
}

# The harness self-check, after a device step: prints one line; returns 1 unless the canary run
# exited 1 with exactly the canary's deliberate failure(s) in its report and the step's exit
# status as seen here (through the VM) is the one the guest computed from the recorded statuses.
harness_self_check() {
    local red="harness self-check: a failing device test did not turn the run red"
    local canary_status expected report="$CANARY_DIR/TEST-junit-jupiter.xml" marked others
    local canary_total canary_failed canary_skipped canary_passed
    if [ ! -f "$REPORTS_DIR/launcher-exit" ]; then
        echo "harness self-check: not run (the device step did not get past the device tests)"
        return 1
    fi
    if [ ! -f "$CANARY_DIR/launcher-exit" ]; then
        echo "harness self-check: FAILED: the canary run did not finish (device step exit $step_status; see ${CANARY_DIR#"$VERBS_ROOT"/}/launcher.log)"
        return 1
    fi
    canary_status=$(cat "$CANARY_DIR/launcher-exit")
    expected=$device_status
    [ "$expected" -ne 0 ] || expected=$canary_status
    if [ "$step_status" -ne "$expected" ]; then
        echo "harness self-check: FAILED: the device step exited $expected where it ran (device launcher $device_status, canary $canary_status) but this script got $step_status: its exit status was not honoured"
        return 1
    fi
    count_reports canary "$report"
    marked=$({ grep -o "<failure message=\"$CANARY_MARKER" "$report" 2>/dev/null || true; } | wc -l)
    others=$(grep -o '<testcase [^>]*' "$report" 2>/dev/null | grep -vc "classname=\"$CANARY_CLASS\"" || true)
    if [ "$canary_total" -gt 0 ] && [ "$canary_skipped" -eq "$canary_total" ] \
        && [ $(( device_passed + device_failed )) -eq 0 ]; then
        echo "harness self-check: not possible: the canary was skipped like every device test (no device)"
        return 0
    fi
    if [ "$canary_status" -ne 1 ] || [ "$canary_total" -lt 1 ] || [ "$canary_failed" -ne "$canary_total" ] \
        || [ "$marked" -ne "$canary_total" ] || [ "$others" -ne 0 ]; then
        echo "$red: the deliberately failing canary run exited $canary_status (1 expected); its report: $canary_total run, $canary_failed failed, $canary_skipped skipped, $marked with the canary's message, $others other tests (${CANARY_DIR#"$VERBS_ROOT"/})"
        return 1
    fi
    echo "harness self-check: a deliberately failing device test was reported as failed (exit $canary_status$([ "$device_where" = "rxe VM" ] && echo ", seen by the host through the VM's exit status"))"
}

# Prints the summary block and exits the shell with its verdict (0 green, 1 red).
print_summary_and_exit() {
    local failed=0
    echo
    echo "==================== panama-verbs test summary ===================="
    if [ "$build_status" -ne 0 ]; then
        echo "build: FAILED (mvn exit $build_status); see the Maven output above"
        failed=1
    fi
    if [ "$run_unit" = 1 ]; then
        shopt -s nullglob
        unit_reports=("$VERBS_ROOT"/*/target/surefire-reports/TEST-*.xml)
        shopt -u nullglob
        count_reports unit "${unit_reports[@]}"
        echo "unit tests: $unit_total run, $unit_failed failed, $unit_skipped skipped (Surefire, ${unit_seconds}s)"
        [ "$unit_failed" -eq 0 ] || failed=1
    fi
    if [ "$run_device" = 1 ]; then
        device_reports=("$REPORTS_DIR"/TEST-junit-jupiter.xml)
        if [ "$build_status" -ne 0 ]; then
            device_total=0 device_failed=0 device_skipped=0 device_passed=0
            device_note="not run: the build failed"
        elif [ ! -f "${device_reports[0]}" ]; then
            count_reports device
            device_note="no launcher report (exit $device_status): the VM or the JVM died before the end of the run"
            if compgen -G "$REPORTS_DIR/hs_err_pid*.log" >/dev/null; then
                device_note="$device_note; the JVM crashed in native code: $(ls "$REPORTS_DIR"/hs_err_pid*.log | head -n1)"
            fi
            failed=1
        else
            count_reports device "${device_reports[@]}"
            # The launcher exits 1 on test failures; any other non-zero exit (VM, JVM) is a failure too.
            if [ "$device_status" -ne 0 ] && [ "$device_failed" -eq 0 ]; then
                device_note="the device run exited with $device_status although no test failed"
                failed=1
            fi
        fi
        echo "device: $device_total run, $device_failed failed, $device_skipped skipped on the $device_where (${device_seconds:-0}s; reports in ${REPORTS_DIR#"$VERBS_ROOT"/})"
        [ -n "$device_note" ] && echo "device run: $device_note"
        [ "$device_failed" -eq 0 ] || failed=1
        if [ "$build_status" -eq 0 ]; then
            harness_self_check || failed=1
        fi
        if [ "${CI:-}" = true ] && [ $(( device_passed + device_failed )) -eq 0 ]; then
            echo "CI=true and no device test ran (all skipped or none found): failing"
            failed=1
        fi
    fi
    echo "===================================================================="
    if [ "$run_device" = 1 ]; then
        echo "device tests: $device_passed passed, $device_failed failed, $device_skipped skipped"
    fi
    exit "$failed"
}

# Run directly: the summary over the reports under --root.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    VERBS_ROOT="" run_unit=0 run_device=0 build_status=0 step_status=0 device_status="" device_note=""
    device_where="rxe VM" unit_seconds=0 device_seconds=0
    while [ $# -gt 0 ]; do
        case "$1" in
            --root) VERBS_ROOT=$(cd "$2" && pwd); shift 2 ;;
            --unit) run_unit=1; shift ;;
            --device) run_device=1; shift ;;
            --build-status) build_status=$2; shift 2 ;;
            --step-status) step_status=$2; shift 2 ;;
            --device-status) device_status=$2; shift 2 ;;
            --where) device_where=$2; shift 2 ;;
            --unit-seconds) unit_seconds=$2; shift 2 ;;
            --device-seconds) device_seconds=$2; shift 2 ;;
            *) echo "summary.sh: unknown option: $1" >&2; exit 2 ;;
        esac
    done
    [ -n "$VERBS_ROOT" ] || { echo "usage: summary.sh --root DIR [--unit] [--device] [options]" >&2; exit 2; }
    REPORTS_DIR=$VERBS_ROOT/target/device-reports
    CANARY_DIR=$REPORTS_DIR/harness-canary
    if [ -z "$device_status" ]; then
        if [ "$run_device" = 1 ] && [ "$build_status" -eq 0 ]; then
            device_status=$(cat "$REPORTS_DIR/launcher-exit" 2>/dev/null || echo "$step_status")
        else
            device_status=0
        fi
    fi
    print_summary_and_exit
fi
