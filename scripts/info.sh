#!/usr/bin/env bash
# ./verbs info [--vm|--host] [--json] [-d DEV] [-v] [-c], flags in any order: verbs-info, everything
# ibv_devinfo [-v] prints, plus each port's GID table with types and netdevs (-c: and counters) and the library's
# availability, version, capabilities and rdma_cm state (--json: the same as JSON). Answers for
# this host (--host, the default, also where there is no RDMA device: that is the answer); --vm
# asks inside the SoftRoCE VM instead. Runs the executable jar verbs-info/target/verbs-info.jar,
# building it first (mvn package -pl verbs-info -am) only when a source or pom is newer than it.
# VERBS_SKIP_BUILD=1 never builds. Progress goes to stderr; stdout is the report.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

where=host
args=()
for arg in "$@"; do
    case "$arg" in
        --host) where=host ;;
        --vm) where=vm ;;
        *) args+=("$arg") ;;
    esac
done
find_jdk
if [ "$where" = vm ]; then prepare_run vm; fi

jar=$VERBS_ROOT/verbs-info/target/verbs-info.jar
# The first source or pom of the jar's modules newer than the jar, if any (none: it is up to date).
newer_source() {
    (cd "$VERBS_ROOT" && find pom.xml verbs-info verbs-core verbs-loader verbs-ffm \
        \( -path '*/target' -o -path '*/src/test' \) -prune -o \
        \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$jar" -print 2>/dev/null | head -n1)
}
if [ "${VERBS_SKIP_BUILD:-0}" = 1 ]; then
    [ -f "$jar" ] || die "VERBS_SKIP_BUILD=1 but there is no $jar: build first (mvn package -pl verbs-info -am)"
else
    stale="there is no jar yet"
    if [ -f "$jar" ]; then
        stale=$(newer_source)
        [ -z "$stale" ] || stale="$stale is newer than the jar"
    fi
    if [ -n "$stale" ]; then
        say "building verbs-info (mvn package -DskipTests -pl verbs-info -am): $stale"
        ensure_packages "${PKGS_BUILD[@]}"
        mvn_run -q -pl verbs-info -am package -DskipTests -Dmaven.javadoc.skip=true >&2
        touch "$jar" # the jar now holds every source; an unchanged jar keeps its old time
    fi
fi

# The executable jar's manifest grants native access too (Enable-Native-Access: ALL-UNNAMED);
# the flag says so on the command line.
cmd=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$jar" ${args[@]+"${args[@]}"})
if [ "$where" = vm ]; then
    say "running verbs-info inside the SoftRoCE VM (rxe0)"
    cd "$VERBS_ROOT"
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${cmd[@]}"
fi
exec "${cmd[@]}"
