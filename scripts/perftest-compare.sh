#!/usr/bin/env bash
# scripts/perftest-compare.sh [JMH ARGS...]: perftest and panama-verbs side by side, in one run on
# one RDMA device. Runs perftest's ib_write_lat, ib_send_lat and ib_write_bw (server and client on
# the same device, 64-byte messages, fixed iteration counts), the C twin of RcLoopbackBench
# (benchmarks/src/main/c/loopback_twin.c: the same loops in C), then RcLoopbackBench through JMH
# (dev.panamaverbs.benchmarks.PerftestCompare), and prints the tables with the ratios.
# Needs a device here: `./verbs bench --perftest-loopback` builds the jar and runs this inside the rxe VM
# when the host has none. See benchmarks/README.md.
#
# Environment:
#   VERBS_TEST_DEVICE      the device (default: the first under /sys/class/infiniband)
#   VERBS_TEST_GID_INDEX   the GID index of all three (default: 1 on rxe devices, else 0)
#   VERBS_PERFTEST_ITERS   iterations of each latency test (default 5000)
#   VERBS_PERFTEST_BW_ITERS  iterations of ib_write_bw (default 16000, a multiple of 16)
#   VERBS_TWIN_ITERS       iterations of each C twin loop (default 20000)
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"
find_jdk

jar="$VERBS_ROOT/benchmarks/target/benchmarks.jar"
[ -f "$jar" ] || die "$jar is missing: build it first (./verbs bench --perftest-loopback does)"
command -v ib_write_lat >/dev/null || die "perftest is not installed (Debian package perftest)"
command -v gcc >/dev/null || die "gcc is not installed (the C twin is built here)"

device=${VERBS_TEST_DEVICE:-}
if [ -z "$device" ]; then
    device=$(ls -1 /sys/class/infiniband 2>/dev/null | head -n1 || true)
fi
[ -n "$device" ] || die "no RDMA device here (/sys/class/infiniband is empty): run ./verbs bench --perftest-loopback, which uses the rxe VM"
export VERBS_TEST_DEVICE=$device

# One GID index for all three (perftest -x, the C twin, the JMH fixture): SoftRoCE's RoCE v2
# IPv4-mapped entry is index 1 (see rxe-vm.md); elsewhere 0 unless configured.
if [ -z "${VERBS_TEST_GID_INDEX:-}" ]; then
    if [[ $device == rxe* ]]; then VERBS_TEST_GID_INDEX=1; else VERBS_TEST_GID_INDEX=0; fi
fi
export VERBS_TEST_GID_INDEX
gid_args=(-x "$VERBS_TEST_GID_INDEX")
iters=${VERBS_PERFTEST_ITERS:-5000}
bw_iters=${VERBS_PERFTEST_BW_ITERS:-16000}
size=64

out=$(mktemp -d "${TMPDIR:-/tmp}/perftest-compare.XXXXXX")
trap 'rm -rf "$out"' EXIT

# One perftest server + client pair on $device; the client's output goes to $out/<tool>.txt.
port=18515
run_pair() {
    local tool=$1; shift
    local args=(-d "$device" "${gid_args[@]}" -p "$port" "$@")
    port=$((port + 1))
    say "$tool ${args[*]}"
    timeout 180 "$tool" "${args[@]}" >"$out/$tool.server.txt" 2>&1 &
    local server=$!
    local attempt status=1
    for attempt in 1 2 3 4 5; do
        sleep 1 # the server needs a moment to listen (longer under emulation)
        if timeout 180 "$tool" "${args[@]}" localhost >"$out/$tool.txt" 2>&1; then
            status=0
            break
        fi
        grep -q "Couldn't connect\|Unable to open" "$out/$tool.txt" || break
    done
    wait "$server" || true
    if [ "$status" -ne 0 ]; then
        cat "$out/$tool.txt" >&2
        die "$tool failed (client output above)"
    fi
    # The result line(s), for the log.
    grep -E '^ *#bytes|^ *[0-9]+ +[0-9]+ ' "$out/$tool.txt" >&2 || true
}

run_pair ib_write_lat -s "$size" -n "$iters"
run_pair ib_send_lat -s "$size" -n "$iters"
# Chains of 16, 16 outstanding, one completion per chain: what RcLoopbackBench.writeBatch16 does.
run_pair ib_write_bw -s "$size" -n "$bw_iters" -l 16 -t 16 -Q 16

say "C twin of RcLoopbackBench (gcc -O2, libibverbs)"
gcc -O2 -o "$out/loopback_twin" "$VERBS_ROOT/benchmarks/src/main/c/loopback_twin.c" -libverbs \
    || die "building the C twin failed (needs libibverbs-dev)"
timeout 300 "$out/loopback_twin" "${VERBS_TWIN_ITERS:-20000}" >"$out/loopback_twin.txt" \
    || die "the C twin failed: $(cat "$out/loopback_twin.txt")"
cat "$out/loopback_twin.txt" >&2

jvm_opts=(--enable-native-access=ALL-UNNAMED)
# JMH 1.37 uses sun.misc.Unsafe; JDK 23+ warns about it in every JVM. JMH's noise, not ours.
[ "$(java_major "$JAVA_HOME/bin/java")" -ge 23 ] && jvm_opts+=(--sun-misc-unsafe-memory-access=allow)
# Crash reports (if any) go to /tmp, not into the working tree.
jvm_opts+=("-XX:ErrorFile=${TMPDIR:-/tmp}/panamaverbs-bench-hs_err_pid%p.log")
if [ "${VERBS_IN_VM:-0}" = 1 ]; then
    # QEMU TCG with two vCPUs does not run HotSpot's cross-modifying code reliably: when tiered
    # compilation replaces a C1 method by its C2 version, another vCPU can execute the half-patched
    # method entry and the JVM dies with SIGSEGV (seen in JDK code and ours alike; see
    # benchmarks/README.md). C2 only avoids those replacements. Emulation only.
    jvm_opts+=(-XX:-TieredCompilation)
fi
say "RcLoopbackBench through JMH on $device"
"$JAVA_HOME/bin/java" "${jvm_opts[@]}" -cp "$jar" dev.panamaverbs.benchmarks.PerftestCompare "$out" \
    -jvmArgsAppend "${jvm_opts[*]}" "$@"
