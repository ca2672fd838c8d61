# ./verbs test [--unit|--device]: unit tests under Maven (Surefire, tag "device" excluded), then
# the device tests through the JUnit Platform launcher, on this host's RDMA device if it has
# one, else inside the SoftRoCE VM (scripts/vm.sh, one boot per run). Prints one summary; exits
# non-zero if a test failed, the build or the VM failed, or, with CI=true, no device test ran.
# The device step (scripts/device-run.sh) also runs a deliberately failing canary test (tag
# harness-canary) after the device tests, in the same VM boot; the run goes red unless it failed
# exactly as planned and its failing exit status reached this script (the harness self-check).
# VERBS_SKIP_BUILD=1 with --device reuses what is already built (quick iteration on device tests).
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"
# shellcheck source=scripts/stage.sh
. "$VERBS_ROOT/scripts/stage.sh"

run_unit=1 run_device=1
case "${1:-}" in
    "") ;;
    --unit) run_device=0 ;;
    --device) run_unit=0 ;;
    *) die "usage: ./verbs test [--unit|--device]" ;;
esac

STAGE_DIR=$VERBS_ROOT/target/device-tests
REPORTS_DIR=$VERBS_ROOT/target/device-reports
CANARY_DIR=$REPORTS_DIR/harness-canary
# The canary's class and the start of its failure message (verbs-testkit HarnessCanaryTest).
CANARY_CLASS=dev.panamaverbs.testkit.HarnessCanaryTest
CANARY_MARKER="harness canary: deliberate failure"

# Where device tests can run: a device on this host (or we are the VM), else the rxe VM.
has_host_device() {
    [ "${VERBS_IN_VM:-0}" = 1 ] && return 0
    [ -d /sys/class/infiniband ] && [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]
}

find_jdk
ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}" "${PKGS_GENERATOR[@]}"
device_where=""
if [ "$run_device" = 1 ]; then
    if has_host_device; then
        local_devices=$(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ' | sed 's/ $//' || true)
        device_where="local device (${local_devices:-none in /sys/class/infiniband})"
    else
        device_where="rxe VM"
        ensure_packages "${PKGS_VM[@]}"
    fi
fi

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

build_status=0 device_status=0 step_status=0 device_note=""

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
started=$(date +%s)

if [ "$run_unit" = 1 ]; then
    say "build + unit tests: mvn install (device tests excluded)"
    rm -rf "$VERBS_ROOT"/*/target/surefire-reports
    # Test failures do not stop the build, so the device tests still run; the reports count them.
    mvn_run install -Dmaven.test.failure.ignore=true || build_status=$?
elif [ "${VERBS_SKIP_BUILD:-0}" = 1 ]; then
    say "VERBS_SKIP_BUILD=1: using the jars and test classes already under */target"
else
    say "build (tests compiled, not run): mvn install -DskipTests"
    mvn_run install -DskipTests || build_status=$?
fi
unit_seconds=$(( $(date +%s) - started ))

if [ "$run_device" = 1 ] && [ "$build_status" -eq 0 ]; then
    device_started=$(date +%s)
    rm -rf "$REPORTS_DIR"
    mkdir -p "$REPORTS_DIR"
    (stage_device_tests "$STAGE_DIR") || die "staging the device tests failed (see above)"
    # The launcher on tag device, then on the canary; each records its exit status. The step
    # exits with the device run's status, or the canary's (1) when that is 0.
    step=(bash "$VERBS_ROOT/scripts/device-run.sh" "$STAGE_DIR" "$REPORTS_DIR" "$CANARY_DIR")
    say "device tests on the $device_where"
    if [ "$device_where" = "rxe VM" ]; then
        (cd "$VERBS_ROOT" && bash "$VERBS_ROOT/scripts/vm.sh" -- "${step[@]}") || step_status=$?
    else
        (cd "$VERBS_ROOT" && "${step[@]}") || step_status=$?
    fi
    # The device launcher's own status, as recorded where it ran; else what the step returned.
    device_status=$(cat "$REPORTS_DIR/launcher-exit" 2>/dev/null || echo "$step_status")
    device_seconds=$(( $(date +%s) - device_started ))
fi

# ---- summary ----
failed=0
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
