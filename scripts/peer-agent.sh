# Host B's command in a two-host run of ./verbs test (scripts/vm.sh --peer): starts the peer
# agent (verbs-it dev.panamaverbs.it.support.PeerAgent), which runs the peer programs the two-host tests on host A
# submit, until host A writes $VERBS_TWO_HOST_DIR/stop.
#   bash scripts/peer-agent.sh STAGE_DIR
# Needs JAVA_HOME and the two-host environment vm.sh sets (VERBS_TWO_HOST_DIR, VERBS_HOST=b, ...).
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: peer-agent.sh STAGE_DIR" >&2; exit 2; }
stage=$1
# One small JVM that mostly sleeps: C1 only, the serial GC, a small heap.
exec "${JAVA_HOME:?JAVA_HOME is not set}/bin/java" "@$stage/peer.args" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx64m \
    dev.panamaverbs.it.support.PeerAgent "$stage" --max-seconds "${VERBS_VM_TIMEOUT:-3600}"
