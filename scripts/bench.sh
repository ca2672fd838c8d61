#!/usr/bin/env bash
# ./verbs bench [--vm] [JMH ARGS...]: builds the JMH jar and runs it. --vm runs it inside the
# rxe VM (device benchmarks need an RDMA device). Example: ./verbs bench OpsTable -prof gc
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
find_jdk
ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}"

in_vm=false
if [ "${1:-}" = "--vm" ]; then in_vm=true; shift; fi

say "building benchmarks"
mvn_run -q -pl benchmarks -am install -DskipTests
jar="$VERBS_ROOT/benchmarks/target/benchmarks.jar"
# JMH forks measurement JVMs on the class path: native access goes to the unnamed module here,
# in this tool only (libraries and tests name their modules).
cmd=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$jar" -jvmArgsAppend --enable-native-access=ALL-UNNAMED "$@")
if $in_vm; then
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${cmd[@]}"
fi
exec "${cmd[@]}"
