#!/usr/bin/env bash
# ./verbs example [--host|--vm] [--peer 'CMD'] NAME [ARGS...]: runs one of the examples module's
# programs that interoperate with rdma-core's C tools, with the C tool's own options:
#   rc-pingpong   dev.panamaverbs.examples.pingpong.RcPingPong   (ibv_rc_pingpong's twin)
#   rping         dev.panamaverbs.examples.rping.RPing           (rping's twin)
#   windows       dev.panamaverbs.examples.windows.ProducerConsumer (one-sided windows: a producer
#                 pushes records into a consumer's window; `consumer|producer ADDRESS PORT [COUNT]`)
#   kv            dev.panamaverbs.examples.kv.KeyValueService (a key-value service over verbs-messaging:
#                 `server ADDRESS PORT [CLIENTS]` | `client ADDRESS PORT [COUNT [SEED]]`)
#   send-recv     dev.panamaverbs.examples.TwoHostSendRecv (the README's two-host example:
#                 `server|client ADDRESS PORT`, one SEND each way over rdma_cm)
# On this host when it has an RDMA device (or --host), else inside the SoftRoCE VM (or --vm).
# --peer 'CMD' first starts CMD (a shell command: the C tool, or `./verbs example ...` for our own
# program) in the same place, in the background, waits VERBS_PEER_DELAY seconds (default 5) for it
# to listen, runs NAME, then waits for the peer (VERBS_PEER_TIMEOUT, default 300 s, then killed).
# Exits non-zero when either failed. Builds and stages like ./verbs demo (target/demo/java.args),
# except inside the VM, which uses what the host built.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

where=auto peer=""
while [ $# -gt 0 ]; do
    case "$1" in
        --host) where=host; shift ;;
        --vm) where=vm; shift ;;
        --peer) [ $# -ge 2 ] || die "--peer needs a command"; peer=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || die "usage: ./verbs example [--host|--vm] [--peer 'CMD'] rc-pingpong|rping|windows|kv|send-recv [ARGS...]"
case "$1" in
    rc-pingpong) main=dev.panamaverbs.examples.pingpong.RcPingPong ;;
    rping) main=dev.panamaverbs.examples.rping.RPing ;;
    windows) main=dev.panamaverbs.examples.windows.ProducerConsumer ;;
    kv) main=dev.panamaverbs.examples.kv.KeyValueService ;;
    send-recv) main=dev.panamaverbs.examples.TwoHostSendRecv ;;
    *) die "unknown example: $1 (rc-pingpong, rping, windows, kv or send-recv)" ;;
esac
shift
where=$(run_place "$where")

find_jdk
demo_dir=$VERBS_ROOT/target/demo
if [ "${VERBS_IN_VM:-0}" != 1 ] && [ "${VERBS_SKIP_BUILD:-0}" != 1 ]; then
    ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}"
    [ "$where" = vm ] && ensure_packages "${PKGS_VM[@]}"
    say "building (mvn install -DskipTests)"
    mvn_run -q -pl harness,examples -am install -DskipTests
    harness stage-examples "$demo_dir"
fi
[ -f "$demo_dir/java.args" ] || die "no $demo_dir/java.args: run ./verbs example on the host first (it builds and stages)"

# With --peer, example-pair.sh runs the peer, then the program, in one place (here or in the VM).
exec_with_peer "$where" "$peer" "running inside the SoftRoCE VM (rxe0 at 10.0.2.15)" \
    "$JAVA_HOME/bin/java" "@$demo_dir/java.args" -m "dev.panamaverbs.examples/$main" "$@"
