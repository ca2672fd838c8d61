#!/usr/bin/env bash
# ./verbs bench [--vm] [JMH ARGS...]: builds the JMH jar and runs it. --vm runs it inside the
# rxe VM (device benchmarks need an RDMA device). Example: ./verbs bench OpsTable -prof gc
# ./verbs bench --perftest: the two-host sweep, perftest against our Java twin in four pairings
# across two rxe VMs, with tables, ratios and a chart (scripts/perftest-sweep.sh).
# ./verbs bench --perftest-all-sizes: perftest's -a on RC (2 B to 8 MiB) for send/write/read bw and
# lat against our twin in both directions, across the same two VMs, pass or fail per pairing.
# ./verbs bench --messaging: issue 24's messaging benchmark across two hosts (two rxe VMs):
# verbs-messaging against the plain verbs loop and NIO TCP, launched as the sweep is (MessagingCompareTwoHostTest).
# ./verbs bench --perftest-loopback [JMH ARGS...]: perftest and RcLoopbackBench side by side in one
# run on one device (scripts/perftest-compare.sh), inside the rxe VM when this host has no device.
# ./verbs bench --cold-start [ROUNDS]: Verbs.isAvailable() + devices() against a plain FFM program,
# as whole processes on this host (ColdStart).
# See benchmarks/README.md.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
find_jdk
ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}"

mode=host
case "${1:-}" in
    --vm) mode=vm; shift ;;
    --perftest) shift; exec bash "$VERBS_ROOT/scripts/perftest-sweep.sh" "$@" ;;
    --perftest-all-sizes) shift; exec bash "$VERBS_ROOT/scripts/perftest-sweep.sh" --bench perftest-all-sizes "$@" ;;
    --messaging) shift; exec bash "$VERBS_ROOT/scripts/perftest-sweep.sh" --bench messaging-bench "$@" ;;
    --perftest-loopback) mode=perftest; shift ;;
    --cold-start) mode=cold-start; shift ;;
esac
[ "$mode" = perftest ] && ensure_packages "${PKGS_BENCH[@]}"

# True when this machine (or the VM we are in) has an RDMA device.
has_device() {
    [ "${VERBS_IN_VM:-0}" = 1 ] || [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]
}

say "building benchmarks"
mvn_run -q -pl benchmarks -am install -DskipTests
jar="$VERBS_ROOT/benchmarks/target/benchmarks.jar"
# Benchmarks in the VM keep QEMU's multi-threaded TCG (two host threads, the numbers in
# benchmarks/README.md) and run their JVMs with -XX:-TieredCompilation, which avoids the JIT
# crashes multi-threaded TCG causes (scripts/vm.sh explains). Tests use single-threaded TCG.
export VERBS_VM_TCG_THREAD=${VERBS_VM_TCG_THREAD:-multi}

if [ "$mode" = perftest ]; then
    if has_device; then
        exec bash "$VERBS_ROOT/scripts/perftest-compare.sh" "$@"
    fi
    say "no RDMA device on this host: running perftest and the benchmarks inside the rxe VM"
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- bash "$VERBS_ROOT/scripts/perftest-compare.sh" "$@"
fi

if [ "$mode" = cold-start ]; then
    exec "$JAVA_HOME/bin/java" -cp "$jar" dev.panamaverbs.benchmarks.coldstart.ColdStart "$@"
fi

# JMH forks measurement JVMs on the class path: native access goes to the unnamed module here,
# in this tool only (libraries and tests name their modules). JMH 1.37 uses sun.misc.Unsafe,
# which JDK 23+ warns about in every JVM: allowed here, for JMH's sake.
jvm_opts=(--enable-native-access=ALL-UNNAMED)
[ "$(java_major "$JAVA_HOME/bin/java")" -ge 23 ] && jvm_opts+=(--sun-misc-unsafe-memory-access=allow)
# Crash reports (if any) go to /tmp, not into the working tree.
jvm_opts+=("-XX:ErrorFile=${TMPDIR:-/tmp}/panamaverbs-bench-hs_err_pid%p.log")
# In the TCG VM, C2 only: tiered compilation's C1 -> C2 code patching races across emulated vCPUs
# and can crash the JVM (see benchmarks/README.md). Emulation only.
[ "$mode" = vm ] && jvm_opts+=(-XX:-TieredCompilation)

extra=()
if [ "$mode" = host ] && ! has_device; then
    for arg in "$@"; do
        case "$arg" in *RcLoopback*|*OneSided*|*SendBatchBench*)
            die "no RDMA device on this host (/sys/class/infiniband is empty): RcLoopbackBench, OneSidedBench and SendBatchBench need one.
Run them on SoftRoCE with: ./verbs bench --vm $*" ;;
        esac
    done
    say "no RDMA device on this host: leaving out RcLoopbackBench, OneSidedBench and SendBatchBench (./verbs bench --vm runs them on SoftRoCE)"
    extra=(-e RcLoopbackBench -e OneSidedBench -e SendBatchBench)
fi

cmd=("$JAVA_HOME/bin/java" "${jvm_opts[@]}" -jar "$jar" -jvmArgsAppend "${jvm_opts[*]}" "${extra[@]}" "$@")
if [ "$mode" = vm ]; then
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${cmd[@]}"
fi
exec "${cmd[@]}"
