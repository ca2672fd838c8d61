#!/usr/bin/env bash
# ./verbs demo [--host|--vm] [--quick-start | DEVICE]: the main job. Builds the library and the
# examples module, then runs dev.panamaverbs.examples.Demo on this host when it has an RDMA device
# (or --host): availability, devices, and an RC exchange verified byte for byte. Without a device
# (or with --vm) it runs in two SoftRoCE VMs: the same demo on host A, then TwoHostDemo, a client
# on A and a server on B connected by rdma_cm, each printing what it did. --quick-start runs the README's quick start (examples' QuickStart)
# instead. The harness stages the module path and native access (target/demo/java.args).
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

choose_place "$@"
shift "$place_args"
main=Demo
if [ "${1:-}" = --quick-start ]; then
    main=QuickStart
    shift
fi

say "building (mvn install -DskipTests)"
mvn_run -q -pl harness,examples -am install -DskipTests

demo_dir=$VERBS_ROOT/target/demo
harness stage-examples "$demo_dir"

cmd=("$JAVA_HOME/bin/java" "@$demo_dir/java.args" -m "dev.panamaverbs.examples/dev.panamaverbs.examples.$main" "$@")
if [ "$where" = vm ] && [ "$main" = Demo ]; then
    # Two hosts: after the one-host demo on A, A's client and B's server connect by rdma_cm over
    # the link (198.18.0.1 -> 198.18.0.2) and exchange SEND/RECV, WRITE, READ and atomics.
    two_host=("$JAVA_HOME/bin/java" "@$demo_dir/java.args" -m dev.panamaverbs.examples/dev.panamaverbs.examples.TwoHostDemo)
    say "no RDMA device on this host: running the demo in two SoftRoCE VMs (host A: one-host demo, then the rdma_cm client; host B: the server)"
    exec bash "$VERBS_ROOT/scripts/vm.sh" --peer "${two_host[*]} server 198.18.0.2 7471" -- \
        bash -c "$(printf '%q ' "${cmd[@]}") && $(printf '%q ' "${two_host[@]}") client 198.18.0.2 7471"
fi
if [ "$where" = vm ]; then
    say "no RDMA device on this host: running the demo inside the SoftRoCE VM (rxe0)"
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${cmd[@]}"
fi
exec "${cmd[@]}"
