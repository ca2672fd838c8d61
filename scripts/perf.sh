#!/usr/bin/env bash
# ./verbs perf [--host|--vm] [--peer 'CMD'] TEST [OPTIONS] [HOST]: the perftest module's Java twins of
# perftest (TEST: write_lat send_lat read_lat atomic_lat write_bw send_bw read_bw atomic_bw), with
# perftest's options; no HOST makes the server. Builds the module, then runs its executable jar
# (java -jar perftest/target/verbs-perftest.jar TEST ...) on this host when it has an RDMA device
# (or --host), else inside the SoftRoCE VM (or --vm), like ./verbs example. --peer 'CMD' first
# starts CMD (e.g. Debian's ib_write_lat as the server) in the same place, waits 5 s, then runs
# the test (scripts/example-pair.sh); the exit status is non-zero when either failed.
# VERBS_SKIP_BUILD=1 reuses the jar already built.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

choose_place "$@"
shift "$place_args"
peer=""
if [ "${1:-}" = --peer ]; then
    [ $# -ge 2 ] || die "--peer needs a command"
    peer=$2
    shift 2
fi
[ $# -ge 1 ] || die "usage: ./verbs perf [--host|--vm] [--peer 'CMD'] TEST [OPTIONS] [HOST]"

jar=$VERBS_ROOT/perftest/target/verbs-perftest.jar
if [ "${VERBS_SKIP_BUILD:-0}" = 1 ] || [ "${VERBS_IN_VM:-0}" = 1 ]; then
    [ -f "$jar" ] || die "there is no $jar: build first (mvn install -pl perftest -am)"
else
    say "building (mvn install -DskipTests -pl perftest -am)"
    mvn_run -q -pl perftest -am install -DskipTests >&2
fi

# The jar's manifest grants native access too (Enable-Native-Access: ALL-UNNAMED); the flag says so.
if [ "$where" = vm ]; then cd "$VERBS_ROOT"; fi
exec_with_peer "$where" "$peer" "no RDMA device on this host: running inside the SoftRoCE VM (rxe0 at 10.0.2.15)" \
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$jar" "$@"
