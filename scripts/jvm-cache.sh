# Makes the class-data-sharing archive that the tests' perftest JVMs start with (docs/suite-time.md):
#   bash scripts/jvm-cache.sh CACHE_DIR
# run from the repository root, where the device is (in a two-host run host B's peer-agent.sh runs it
# in the background while host A starts; the run folder is shared, so A's JVMs use it as well).
# One training pair of the perftest jar (a send_bw server and client on this host's rxe0, the client
# with -XX:ArchiveClassesAtExit) writes CACHE_DIR/verbs-perftest.jsa: a dynamic archive on top of the
# JDK's default one. It is published (renamed into place) only once a JVM started with it loaded
# classes from it; otherwise this prints why and publishes nothing, and the JVMs start without it
# (InteropPeers logs that). An archive is only valid for this jar as it is now (the JVM checks the
# jar's size and time), so it is made once per boot, never cached across builds.
# Needs JAVA_HOME. Exits 0 whatever happens: the archive only saves time.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: jvm-cache.sh CACHE_DIR" >&2; exit 2; }
dir=$1
java=${JAVA_HOME:?JAVA_HOME is not set}/bin/java
jar=$(pwd)/perftest/target/verbs-perftest.jar
device=${VERBS_TEST_DEVICE:-rxe0}
# The options of InteropPeers.jar: an archive is used only by JVMs with the same module options.
quick=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED)
archive=$dir/verbs-perftest.jsa
log() { echo "jvm-cache: $*"; }

mkdir -p "$dir" || exit 0
[ -f "$jar" ] || { log "no $jar: no archive"; exit 0; }
started=$SECONDS
port=$(( 17000 + RANDOM % 500 ))
work=$dir/training-$$
mkdir -p "$work"
options=(send_bw -d "$device" -F -s 64 -n 200 -p "$port" --timeout 30)
"$java" "${quick[@]}" -jar "$jar" "${options[@]}" >"$work/server.log" 2>&1 &
server=$!
# Listening: a TCP socket in state LISTEN (0A) on the port, IPv4 or IPv6 (as PeerPairing.Listening.TCP).
until awk -v port="$(printf ':%04X' "$port")" '$4 == "0A" && substr($2, length($2) - 4) == port { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.2
done
"$java" "${quick[@]}" -XX:ArchiveClassesAtExit="$work/archive.jsa" -jar "$jar" "${options[@]}" 127.0.0.1 >"$work/client.log" 2>&1
client_status=$?
wait "$server"
server_status=$?
log "training pair (send_bw on $device) exited: server $server_status, client $client_status (outputs in $work)"
if [ ! -s "$work/archive.jsa" ]; then
    log "the training wrote no archive: the perftest JVMs start without one"
    exit 0
fi
# Usable: a JVM started with it loads the jar's classes from it ("shared objects file (top)").
shared=$("$java" "${quick[@]}" -XX:SharedArchiveFile="$work/archive.jsa" -Xlog:class+load=info -jar "$jar" no_such_test 2>&1 \
    | grep -c 'source: shared objects file (top)')
if [ "$shared" -eq 0 ]; then
    log "a JVM started with the archive loaded nothing from it: the perftest JVMs start without one"
    exit 0
fi
mv -f "$work/archive.jsa" "$archive"
log "$archive ready after $(( SECONDS - started ))s ($shared classes from it at start-up)"
exit 0
