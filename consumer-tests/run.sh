#!/usr/bin/env bash
# Runs the two built consumer projects' quick start with only the documented native-access flags
# (README.md, "Native access"): the class-path one with --enable-native-access=ALL-UNNAMED, the
# modular one with --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader, both with
# --illegal-native-access=deny so that a missing grant fails instead of warning. Needs an
# RDMA device with a RoCE v2 IPv4 GID (./verbs consumers runs it inside the rxe VM). Exit status:
# the number of consumers that failed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
java=${JAVA_HOME:?JAVA_HOME is not set}/bin/java
failed=0

run() {
    local name=$1
    shift
    echo "==> $name: java $*"
    if "$java" "$@"; then
        echo "==> $name: OK"
    else
        echo "==> $name: FAILED (exit $?)"
        failed=$((failed + 1))
    fi
}

run class-path --enable-native-access=ALL-UNNAMED --illegal-native-access=deny \
    -cp "$here/classpath/target/classes:$here/classpath/target/lib/*" example.classpath.QuickStart
run module-path --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader --illegal-native-access=deny \
    -p "$here/modular/target/classes:$here/modular/target/lib" -m example.modular/example.modular.QuickStart
echo "==> consumers: $((2 - failed)) of 2 ran the quick start"
exit "$failed"
