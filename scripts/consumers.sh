#!/usr/bin/env bash
# ./verbs consumers [--host|--vm]: proves that a user's project can use the library as the README
# says. Installs the library into the local Maven repository (mvn install -pl verbs-core -am),
# builds the two fixture projects under consumer-tests/ offline and on their own (mvn -o -q -f
# consumer-tests/{classpath,modular}/pom.xml package: no parent, verbs-core:0.1.0-SNAPSHOT from
# the local repository), then runs both quick starts with only the documented native-access flags
# (consumer-tests/run.sh), on this host when it has an RDMA device, else inside the rxe VM.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

choose_place "$@"
shift "$place_args"

if [ "${VERBS_SKIP_BUILD:-0}" != 1 ]; then
    say "installing the library into the local Maven repository (mvn install -DskipTests -pl verbs-core -am)"
    mvn_run -q -pl verbs-core -am install -DskipTests
fi
# Each consumer runs the README quick start itself: the examples module's copy (kept equal to the
# README by ReadmeQuickStartTest), in the consumer's own package.
quick_start=$VERBS_ROOT/examples/src/main/java/dev/panamaverbs/examples/QuickStart.java
for project in classpath modular; do
    mkdir -p "$VERBS_ROOT/consumer-tests/$project/src/main/java/example/$project"
    sed "s/^package dev\.panamaverbs\.examples;/package example.$project;/" "$quick_start" \
        >"$VERBS_ROOT/consumer-tests/$project/src/main/java/example/$project/QuickStart.java"
done
for project in classpath modular; do
    say "building consumer-tests/$project offline, as a separate project (mvn -o -q -f consumer-tests/$project/pom.xml package)"
    mvn_run -o -q -f "consumer-tests/$project/pom.xml" clean package
done

step=(bash "$VERBS_ROOT/consumer-tests/run.sh")
if [ "$where" = vm ]; then
    say "no RDMA device on this host: running both consumers inside the SoftRoCE VM (rxe0)"
    cd "$VERBS_ROOT"
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${step[@]}"
fi
exec "${step[@]}"
