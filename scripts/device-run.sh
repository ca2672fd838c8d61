# The device step of ./verbs test, run where the device is (inside the rxe VM through vm.sh, or
# on this host):   bash scripts/device-run.sh STAGE_DIR REPORTS_DIR CANARY_DIR
# 1. the JUnit ConsoleLauncher over the staged tests with --include-tag device, reports in
#    REPORTS_DIR, output streamed;
# 2. the harness self-check: the launcher again with --include-tag harness-canary (one
#    deliberately failing test, verbs-testkit HarnessCanaryTest), reports in CANARY_DIR, output
#    in CANARY_DIR/launcher.log.
# Each launcher's exit status goes into <its reports dir>/launcher-exit. This script exits with
# the device run's status when that is non-zero, else with the canary's (1 when the harness
# works): so on a green run a failing launcher's status has to cross the VM for scripts/test.sh
# to accept it. The harness's summary (HarnessSelfCheck) checks that what test.sh got is what was
# recorded here.
# In a two-host run (VERBS_TWO_HOST_DIR set by vm.sh --peer) the device launcher's tests include the
# two-host ones; when it is done, this script writes $VERBS_TWO_HOST_DIR/stop so that host B's
# peer agent stops while the canary runs.
# VERBS_DEVICE_TESTS=REGEX narrows the device launcher to the test classes whose fully qualified
# names match (JUnit's --include-classname), for quick iteration; CI never sets it.
# Needs JAVA_HOME (a JDK >= 22; vm.sh and test.sh export it).
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: device-run.sh STAGE_DIR REPORTS_DIR CANARY_DIR" >&2; exit 2; }
stage=$1 reports=$2 canary=$3
java=${JAVA_HOME:?JAVA_HOME is not set}/bin/java
mapfile -t scan_args <"$stage/scan.args"
device_filter=()
if [ -n "${VERBS_DEVICE_TESTS:-}" ]; then
    [ "${CI:-}" != true ] || { echo "VERBS_DEVICE_TESTS is for local iteration, not CI" >&2; exit 2; }
    device_filter=(--include-classname "$VERBS_DEVICE_TESTS")
fi

# Runs the launcher on one tag into one reports dir (a native crash report goes there too),
# with any further JVM options given.
launch() {
    local tag=$1 dir=$2 filter=()
    shift 2
    [ "$tag" != device ] || filter=("${device_filter[@]}")
    "$java" "@$stage/java.args" "-XX:ErrorFile=$dir/hs_err_pid%p.log" "$@" \
        -m org.junit.platform.console/org.junit.platform.console.ConsoleLauncher \
        execute --disable-banner --disable-ansi-colors --details=testfeed \
        --include-tag "$tag" "${scan_args[@]}" --reports-dir "$dir" "${filter[@]}"
}

mkdir -p "$reports" "$canary"
launch device "$reports"
device_status=$?
echo "$device_status" >"$reports/launcher-exit"
[ -z "${VERBS_TWO_HOST_DIR:-}" ] || : >"$VERBS_TWO_HOST_DIR/stop"

echo "==> harness self-check: running the deliberately failing canary (tag harness-canary; output in $canary/launcher.log)"
canary_started=$SECONDS
# Same module path, scan and tag filtering as the device run. C1 only and the serial GC: this
# JVM runs one test, and under TCG that roughly halves its cost.
launch harness-canary "$canary" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC >"$canary/launcher.log" 2>&1
canary_status=$?
echo "$canary_status" >"$canary/launcher-exit"
echo "==> harness self-check: canary launcher exit $canary_status after $(( SECONDS - canary_started ))s"

status=$device_status
[ "$status" -ne 0 ] || status=$canary_status
echo "==> device step exits $status (device tests: launcher exit $device_status; else the canary's, 1 expected)"
exit "$status"
