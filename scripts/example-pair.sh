#!/usr/bin/env bash
# ./verbs example --peer's runner, where the device is (this host or the VM):
#   VERBS_EXAMPLE_PEER='CMD' bash scripts/example-pair.sh PROGRAM [ARGS...]
# Starts CMD in the background (bounded by VERBS_PEER_TIMEOUT seconds, default 300), waits
# VERBS_PEER_DELAY seconds (default 5) for it to listen, runs PROGRAM (bounded the same way), then
# waits for CMD. Exits with PROGRAM's status if it failed, else with CMD's.
set -uo pipefail
peer=${VERBS_EXAMPLE_PEER:?VERBS_EXAMPLE_PEER is not set}
limit=${VERBS_PEER_TIMEOUT:-300}
timeout -k 5 "$limit" sh -c "$peer" &
peer_pid=$!
sleep "${VERBS_PEER_DELAY:-5}"
timeout -k 5 "$limit" "$@"
status=$?
wait "$peer_pid"
peer_status=$?
echo "==> example exited $status, peer ($peer) exited $peer_status"
[ "$status" -ne 0 ] && exit "$status"
exit "$peer_status"
