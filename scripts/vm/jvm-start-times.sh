# Measures what a JVM launch costs where it runs (meant for the TCG guest, docs/suite-time.md):
#   ./verbs vm -- bash scripts/vm/jvm-start-times.sh
# Prints the guest's uptime when the command starts (boot and set-up), then wall seconds of:
# java -version; the perftest jar's usage error (start-up only); a send_bw loopback pair on rxe0
# (server and client, 1000 iterations); each without and then with a class-data-sharing archive
# made by one training run of the pair: a dynamic CDS archive (-XX:ArchiveClassesAtExit) and a
# JDK 25 AOT cache (-XX:AOTCacheOutput), each written by the client's JVM.
set -uo pipefail
java=${JAVA_HOME:?JAVA_HOME is not set}/bin/java
jar=$(pwd)/perftest/target/verbs-perftest.jar
device=${VERBS_TEST_DEVICE:-rxe0}
archive=/tmp/jvm-start-times.jsa
aot=/tmp/jvm-start-times.aot
quick=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED)
echo "uptime at the command's start: $(cut -d' ' -f1 /proc/uptime) s"

timed() { # LABEL COMMAND...: runs it, prints its wall time and exit status
    local label=$1 start end status
    shift
    start=$(date +%s%N)
    "$@" >/tmp/jvm-start-times.out 2>&1
    status=$?
    end=$(date +%s%N)
    printf '%-44s %6.1f s (exit %d)\n' "$label" "$(( (end - start) / 1000000 ))e-3" "$status"
}

pair() { # CLIENT_ONLY|BOTH EXTRA_JVM_OPTIONS...: a send_bw server and client on this host's rxe0
    local port=$(( 18000 + RANDOM % 1000 )) server_options=()
    [ "$1" = CLIENT_ONLY ] || server_options=("${@:2}")
    shift
    "$java" "${quick[@]}" "${server_options[@]}" -jar "$jar" send_bw -d "$device" -F -s 64 -n 1000 -p "$port" --timeout 60 >/tmp/jvm-start-times.server 2>&1 &
    local server=$!
    until awk -v port="$(printf ":%04X" "$port")" '$4 == "0A" && substr($2, length($2) - 4) == port { found = 1 } END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    "$java" "${quick[@]}" "$@" -jar "$jar" send_bw -d "$device" -F -s 64 -n 1000 -p "$port" --timeout 60 127.0.0.1
    local client=$?
    wait "$server"
    return $(( client | $? ))
}

timed "java -version" "$java" "${quick[@]}" -version
timed "java -version (again)" "$java" "${quick[@]}" -version
timed "perftest jar, usage error" "$java" "${quick[@]}" -jar "$jar" no_such_test
timed "perftest jar, usage error (again)" "$java" "${quick[@]}" -jar "$jar" no_such_test
timed "send_bw loopback pair" pair BOTH
timed "send_bw loopback pair (again)" pair BOTH
# A dynamic CDS archive (on top of the JDK's default one) and a JDK 25 AOT cache, each from one
# training pair, each then used by both sides.
timed "training: -XX:ArchiveClassesAtExit" pair CLIENT_ONLY -XX:ArchiveClassesAtExit=$archive
timed "training: -XX:AOTCacheOutput" pair CLIENT_ONLY -XX:AOTCacheOutput=$aot
ls -l "$archive" "$aot"
for option in -XX:SharedArchiveFile=$archive -XX:AOTCache=$aot; do
    timed "java -version, ${option%%=*}" "$java" "${quick[@]}" "$option" -Xlog:cds=off,aot=off -version
    timed "perftest jar, usage error, ${option%%=*}" "$java" "${quick[@]}" "$option" -Xlog:cds=off,aot=off -jar "$jar" no_such_test
    timed "perftest jar, usage error, ${option%%=*}" "$java" "${quick[@]}" "$option" -Xlog:cds=off,aot=off -jar "$jar" no_such_test
    timed "send_bw loopback pair, ${option%%=*}" pair BOTH "$option" -Xlog:cds=off,aot=off
    timed "send_bw loopback pair, ${option%%=*}" pair BOTH "$option" -Xlog:cds=off,aot=off
done
exit 0
