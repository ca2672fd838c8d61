# ./verbs test [--unit|--device] [--kernel SERIES]: unit tests under Maven (Surefire, tag "device" excluded), then
# the device tests through the JUnit Platform launcher, on this host's RDMA device if it has
# one, else inside the SoftRoCE VM (scripts/vm.sh, one boot per run). Prints one summary; exits
# non-zero if a test failed, the build or the VM failed, or, with CI=true, no device test ran.
# The device step (scripts/device-run.sh) also runs a deliberately failing canary test (tag
# harness-canary) after the device tests, in the same VM boot; the run goes red unless it failed
# exactly as planned and its failing exit status reached this script (the harness self-check).
# In the VM the device step runs on two hosts: two VMs on one virtual link (vm.sh --peer); host A
# runs the device step, host B the peer agent (scripts/peer-agent.sh) that runs the two-host
# tests' peer programs. B's outcome goes to REPORTS_DIR/peer-host for the summary.
# Staging and the summary with its checks are Java (harness/, Harness.java); this script starts
# mvn, the harness, and the device step (in the VM or here).
# VERBS_SKIP_BUILD=1 with --device reuses what is already built (quick iteration on device tests).
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

run_unit=1 run_device=1
USAGE="usage: ./verbs test [--unit|--device [--provider rxe|siw]] [--kernel SERIES]"
while [ $# -gt 0 ]; do
    case "$1" in
        --unit) run_device=0; shift ;;
        --device) run_unit=0; shift ;;
        # The VM's kernel series (scripts/vm/prepare.sh): 6.12 boots bookworm's newest 6.12 kernel.
        --kernel) [ $# -ge 2 ] || die "$USAGE"; export VERBS_VM_KERNEL=$2; shift 2 ;;
        # The VM's provider (scripts/vm.sh VERBS_VM_PROVIDER): siw0/siw1 instead of rxe0/rxe1.
        --provider) [ $# -ge 2 ] || die "$USAGE"; export VERBS_VM_PROVIDER=$2; shift 2 ;;
        *) die "$USAGE" ;;
    esac
done
case "${VERBS_VM_PROVIDER:-rxe}" in rxe|siw) ;; *) die "--provider must be rxe or siw, not $VERBS_VM_PROVIDER" ;; esac
[ "${VERBS_VM_PROVIDER:-rxe}" = rxe ] || [ "$run_unit" = 0 ] || die "--provider siw is for --device runs"

STAGE_DIR=$VERBS_ROOT/target/device-tests
REPORTS_DIR=$VERBS_ROOT/target/device-reports
CANARY_DIR=$REPORTS_DIR/harness-canary

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
        device_where="${VERBS_VM_PROVIDER:-rxe} VM"  # two of them: host A and host B
        ensure_packages "${PKGS_VM[@]}"
    fi
fi

build_status=0 step_status=0 device_seconds=0

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
    harness stage-tests "$STAGE_DIR" || die "staging the device tests failed (see above)"
    # The launcher on tag device, then on the canary; each records its exit status. The step
    # exits with the device run's status, or the canary's (1) when that is 0.
    step=(bash "$VERBS_ROOT/scripts/device-run.sh" "$STAGE_DIR" "$REPORTS_DIR" "$CANARY_DIR")
    say "device tests on the $device_where${VERBS_VM_KERNEL:+ (kernel series $VERBS_VM_KERNEL)}"
    if [ "$device_where" = "${VERBS_VM_PROVIDER:-rxe} VM" ]; then
        (cd "$VERBS_ROOT" && bash "$VERBS_ROOT/scripts/vm.sh" --peer "bash $VERBS_ROOT/scripts/peer-agent.sh $STAGE_DIR $REPORTS_DIR" \
            --peer-report "$REPORTS_DIR/peer-host" -- "${step[@]}") || step_status=$?
    else
        (cd "$VERBS_ROOT" && "${step[@]}") || step_status=$?
    fi
    device_seconds=$(( $(date +%s) - device_started ))
fi

# ---- summary ---- (the harness counts the reports, runs the self-check and decides)
summary=(--build-status "$build_status" --step-status "$step_status" --where "$device_where"
         --unit-seconds "$unit_seconds" --device-seconds "$device_seconds" --reports "$REPORTS_DIR")
[ "$run_unit" = 1 ] && summary+=(--unit)
[ "$run_device" = 1 ] && summary+=(--device)
# A build that failed before the harness was built cannot be summarised by it.
[ -f "$VERBS_ROOT/harness/target/harness.jar" ] || die "build: FAILED (mvn exit $build_status) before the harness was built"
harness summary "${summary[@]}" || exit $?
