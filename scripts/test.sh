# ./verbs test [--unit|--device]: unit tests under Maven (Surefire, tag "device" excluded), then
# the device tests through the JUnit Platform launcher, on this host's RDMA device if it has
# one, else inside the SoftRoCE VM (scripts/vm.sh, one boot per run). Prints one summary; exits
# non-zero if a test failed, the build or the VM failed, or, with CI=true, no device test ran.
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

build_status=0 device_status=0 device_note=""
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
    mapfile -t scan_args <"$STAGE_DIR/scan.args"
    # A native crash report goes with the test reports, not into the working tree.
    launcher=("$JAVA_HOME/bin/java" "@$STAGE_DIR/java.args" "-XX:ErrorFile=$REPORTS_DIR/hs_err_pid%p.log"
        -m org.junit.platform.console/org.junit.platform.console.ConsoleLauncher
        execute --disable-banner --disable-ansi-colors --details=testfeed
        --include-tag device "${scan_args[@]}" --reports-dir "$REPORTS_DIR")
    say "device tests on the $device_where"
    if [ "$device_where" = "rxe VM" ]; then
        (cd "$VERBS_ROOT" && bash "$VERBS_ROOT/scripts/vm.sh" -- "${launcher[@]}") || device_status=$?
    else
        (cd "$VERBS_ROOT" && "${launcher[@]}") || device_status=$?
    fi
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
