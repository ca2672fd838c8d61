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
# A two-host run splits the one-host device tests between the two VMs (verbs-it HostShare, a
# launcher filter that both hosts' launchers run with; on unless VERBS_HOST_SHARE=0): host A
# runs its share, then the two-host tests, and before it writes `stop` waits for host B's share
# (verbs-it AwaitPeerAgent); host B's peer-agent.sh runs
#   bash scripts/device-run.sh --host-b-share STAGE_DIR REPORTS_DIR
# first: B's share into REPORTS_DIR/host-b (launcher output in launcher.log there), its exit status
# into launcher-exit there; B's agent, which the two-host tests wait for, starts after it. Host A's
# launcher writes the split to REPORTS_DIR/host-share; the summary (harness HostShareSummary)
# checks that every class ran on its host and counts B's report with A's.
# VERBS_DEVICE_TESTS=REGEX narrows the device launcher to the test classes whose fully qualified
# names match (JUnit's --include-classname), for quick iteration; CI never sets it.
# Needs JAVA_HOME (a JDK >= 22; vm.sh and test.sh export it).
set -uo pipefail

usage="usage: device-run.sh STAGE_DIR REPORTS_DIR CANARY_DIR | device-run.sh --host-b-share STAGE_DIR REPORTS_DIR"
host_b_share=0
if [ "${1:-}" = --host-b-share ]; then
    [ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
    host_b_share=1 stage=$2 reports=$3/host-b
else
    [ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
    stage=$1 reports=$2 canary=$3
fi
java=${JAVA_HOME:?JAVA_HOME is not set}/bin/java
mapfile -t scan_args <"$stage/scan.args"
device_filter=()
if [ -n "${VERBS_DEVICE_TESTS:-}" ]; then
    [ "${CI:-}" != true ] || { echo "VERBS_DEVICE_TESTS is for local iteration, not CI" >&2; exit 2; }
    device_filter=(--include-classname "$VERBS_DEVICE_TESTS")
fi

# JUnit's parallel execution, for the interop tests' two cross pairings only (verbs-it
# CrossPairing: @Execution(CONCURRENT)); every other class and method keeps one thread, one after
# the other. VERBS_PARALLEL_PAIRINGS=0 runs the pairings one at a time too (to measure it).
parallel=(--config=junit.jupiter.execution.parallel.enabled="$([ "${VERBS_PARALLEL_PAIRINGS:-1}" = 0 ] && echo false || echo true)"
          --config=junit.jupiter.execution.parallel.mode.default=same_thread
          --config=junit.jupiter.execution.parallel.mode.classes.default=same_thread
          --config=junit.jupiter.execution.parallel.config.strategy=fixed
          --config=junit.jupiter.execution.parallel.config.fixed.parallelism=2)

# Runs the launcher on one tag into one reports dir (a native crash report goes there too),
# with any further JVM options given.
launch() {
    local tag=$1 dir=$2 filter=()
    shift 2
    [ "$tag" != device ] || filter=("${device_filter[@]}")
    "$java" "@$stage/java.args" "-XX:ErrorFile=$dir/hs_err_pid%p.log" "$@" \
        -m org.junit.platform.console/org.junit.platform.console.ConsoleLauncher \
        execute --disable-banner --disable-ansi-colors --details=testfeed "${parallel[@]}" \
        --include-tag "$tag" "${scan_args[@]}" --reports-dir "$dir" "${filter[@]}"
}

# The split of the one-host tests between the two hosts (above), as each launcher's JVM options.
share=()
# On by default since a full CI run showed it (docs/suite-time.md); VERBS_HOST_SHARE=0 keeps every
# one-host test on host A.
if [ -n "${VERBS_TWO_HOST_DIR:-}" ] && [ "${VERBS_HOST_SHARE:-1}" = 1 ]; then
    if [ "$host_b_share" = 1 ]; then
        share=(-Dpanamaverbs.hostShare=b)
    else
        share=(-Dpanamaverbs.hostShare=a "-Dpanamaverbs.hostShare.file=$reports/host-share"
               -Djunit.jupiter.testclass.order.default=dev.panamaverbs.it.support.OneHostClassesFirst)
    fi
fi

if [ "$host_b_share" = 1 ]; then
    [ ${#share[@]} -gt 0 ] || exit 0
    mkdir -p "$reports"
    : >"$VERBS_TWO_HOST_DIR/host-b-share"
    echo "==> host B's share of the one-host device tests (output in $reports/launcher.log)"
    share_started=$SECONDS
    launch device "$reports" "${share[@]}" >"$reports/launcher.log" 2>&1
    share_status=$?
    echo "$share_status" >"$reports/launcher-exit"
    echo "==> host B's share: launcher exit $share_status after $(( SECONDS - share_started ))s"
    exit "$share_status"
fi

mkdir -p "$reports" "$canary"
launch device "$reports" "${share[@]}"
device_status=$?
echo "$device_status" >"$reports/launcher-exit"
if [ ${#share[@]} -gt 0 ]; then
    "$java" "@$stage/peer.args" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC dev.panamaverbs.it.support.AwaitPeerAgent
fi
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
