#!/usr/bin/env bash
# ./verbs bench --perftest: perftest's write_lat, send_lat, write_bw and send_bw over sizes 2 B to
# 64 KiB across two hosts (server on host B, client on host A: two rxe VMs on one virtual link,
# scripts/vm.sh --peer), in four pairings in the same boot: C/C (Debian's perftest 4.5 against
# itself), Java/Java (the perftest module's twin), Java client with C server, C client with Java
# server; several rounds. The driver is perftest's PerftestSweepTwoHostTest (src/test, tag
# perftest-sweep: never part of ./verbs test), launched on host A as the device tests are, with
# host B's peer agent starting the servers. It writes target/perftest-sweep/ (results.md, the
# tables and verdicts; medians.csv; samples.csv; both sides' logs); then SweepChart (benchmarks
# module) draws benchmarks/perftest-sweep.png from the medians on this host.
#
# Environment: VERBS_SWEEP_ROUNDS (default 3), VERBS_SWEEP_TESTS (comma-separated subset; also
# read_lat and atomic_lat, which run only when named), VERBS_SWEEP_BUDGET_SECONDS (default 1500:
# no step starts later), VERBS_SWEEP_CHART (the PNG; default benchmarks/perftest-sweep.png),
# VERBS_SKIP_BUILD=1.
#
# ./verbs bench --perftest-all-sizes (perftest-sweep.sh --bench perftest-all-sizes): the same two VMs
# and launcher run perftest's PerftestAllSizesTwoHostTest instead (tag perftest-all-sizes): RC -a -n 5,
# 2 B to 8 MiB, for send/write/read bw and lat, Java server with C client and C server with Java
# client, pass or fail per pairing; reports in target/perftest-all-sizes/ (its javadoc has the
# environment). ./verbs bench --messaging (--bench messaging-bench) runs MessagingCompareTwoHostTest
# (benchmarks module; target/messaging-bench/), with no chart.
# Inside host A (VERBS_IN_VM=1) this script is the guest side: perftest-sweep.sh --guest STAGE_DIR [TAG].
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

if [ "${1:-}" = --guest ]; then
    stage=$2
    tag=${3:-perftest-sweep}
    mapfile -t scan_args <"$stage/scan.args"
    reports=$VERBS_ROOT/target/$tag/reports
    mkdir -p "$reports"
    exec "${JAVA_HOME:?JAVA_HOME is not set}/bin/java" "@$stage/java.args" "-XX:ErrorFile=$reports/hs_err_pid%p.log" \
        -m org.junit.platform.console/org.junit.platform.console.ConsoleLauncher \
        execute --disable-banner --disable-ansi-colors --details=tree \
        --include-tag "$tag" "${scan_args[@]}" --reports-dir "$reports"
fi

# The JUnit tag the guest runs, which is also the name of the output folder.
tag=perftest-sweep
if [ "${1:-}" = --bench ]; then
    tag=$2
    shift 2
fi

find_jdk
ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}" "${PKGS_VM[@]}"
if [ "${VERBS_SKIP_BUILD:-0}" != 1 ]; then
    say "build: mvn install -DskipTests"
    mvn_run -q install -DskipTests
fi
stage=$VERBS_ROOT/target/perftest-sweep-stage
out=$VERBS_ROOT/target/$tag
harness stage-tests "$stage" || die "staging the tests failed (see above)"
rm -rf "$out"
mkdir -p "$out"
# Single-threaded TCG: the Java twins run with the JVM's default tiered JIT, whose code patching
# crashes under multi-threaded TCG (scripts/vm.sh); and two VMs on a 2-core host get one host
# thread each.
export VERBS_VM_TCG_THREAD=${VERBS_VM_TCG_THREAD:-single}
case "$tag" in
    perftest-sweep) say "two-host perftest sweep (25-35 minutes under TCG; VERBS_SWEEP_BUDGET_SECONDS, default 1500, caps it)" ;;
    perftest-all-sizes) say "two-host perftest -a on RC against C (about 10 minutes in the VMs under TCG; at most 10 minutes a pairing)" ;;
esac
status=0
(cd "$VERBS_ROOT" && bash "$VERBS_ROOT/scripts/vm.sh" --peer "bash $VERBS_ROOT/scripts/peer-agent.sh $stage" \
    -- bash "$VERBS_ROOT/scripts/perftest-sweep.sh" --guest "$stage" "$tag") || status=$?
if [ "$tag" = perftest-all-sizes ]; then
    say "reports: $out/reports (exit $status)"
    exit "$status"
fi
if [ "$tag" != perftest-sweep ]; then
    [ -f "$out/results.md" ] || die "the $tag run wrote no $out/results.md (exit $status)"
    say "tables and verdicts: $out/results.md"
    exit "$status"
fi
[ -f "$out/medians.csv" ] || die "the sweep wrote no $out/medians.csv (exit $status)"
chart=${VERBS_SWEEP_CHART:-$VERBS_ROOT/benchmarks/perftest-sweep.png}
"$JAVA_HOME/bin/java" -Djava.awt.headless=true -cp "$VERBS_ROOT/benchmarks/target/benchmarks.jar" \
    dev.panamaverbs.benchmarks.perftest.SweepChart "$out/medians.csv" "$chart"
say "tables and verdicts: $out/results.md; chart: $chart"
exit "$status"
