# Host B's command in a two-host run of ./verbs test (scripts/vm.sh --peer): starts the peer
# agent (verbs-it dev.panamaverbs.it.support.PeerAgent), which runs the peer programs the two-host tests on host A
# submit, until host A writes $VERBS_TWO_HOST_DIR/stop.
#   bash scripts/peer-agent.sh STAGE_DIR [REPORTS_DIR]
# With REPORTS_DIR (./verbs test), host B first runs its share of the one-host device tests
# (scripts/device-run.sh --host-b-share, reports in REPORTS_DIR/host-b); the agent starts after it.
# Needs JAVA_HOME and the two-host environment vm.sh sets (VERBS_TWO_HOST_DIR, VERBS_HOST=b, ...).
set -uo pipefail
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: peer-agent.sh STAGE_DIR [REPORTS_DIR]" >&2; exit 2; }
stage=$1 reports=${2:-}
# The perftest JVMs' class-data-sharing archive, made while host A starts (B idles then) into the
# shared run folder, where A's JVMs find it too (scripts/jvm-cache.sh; docs/suite-time.md).
# VERBS_JVM_CACHE=0 leaves it out (to measure what it saves).
if [ -n "${VERBS_TWO_HOST_DIR:-}" ] && [ "${VERBS_JVM_CACHE:-1}" != 0 ]; then
    bash "$(dirname "${BASH_SOURCE[0]}")/jvm-cache.sh" "$VERBS_TWO_HOST_DIR/jvm-cache" &
fi
# Its outcome is in its report (the summary reads it); the agent starts either way.
[ -z "$reports" ] || bash "$(dirname "${BASH_SOURCE[0]}")/device-run.sh" --host-b-share "$stage" "$reports"
# One small JVM that mostly sleeps: C1 only, the serial GC, a small heap.
exec "${JAVA_HOME:?JAVA_HOME is not set}/bin/java" "@$stage/peer.args" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx64m \
    dev.panamaverbs.it.support.PeerAgent "$stage" --max-seconds "${VERBS_VM_TIMEOUT:-3600}"
