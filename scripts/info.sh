#!/usr/bin/env bash
# ./verbs info [--host|--vm] [--json] [-d DEV] [-v]: verbs-info, everything ibv_devinfo [-v]
# prints, plus each port's GID table with types and netdevs and the library's availability,
# version and capabilities (--json: the same as JSON). Builds the verbs-info module, then runs its
# executable jar (java -jar verbs-info/target/verbs-info.jar) on this host when it has an RDMA
# device (or --host), else inside the SoftRoCE VM (or --vm), like ./verbs demo.
# VERBS_SKIP_BUILD=1 reuses the jar already built. Progress goes to stderr; stdout is the report.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

choose_place "$@"
shift "$place_args"

jar=$VERBS_ROOT/verbs-info/target/verbs-info.jar
if [ "${VERBS_SKIP_BUILD:-0}" = 1 ]; then
    [ -f "$jar" ] || die "VERBS_SKIP_BUILD=1 but there is no $jar: build first (mvn install)"
else
    say "building (mvn install -DskipTests -pl verbs-info -am)"
    mvn_run -q -pl verbs-info -am install -DskipTests >&2
fi

# The executable jar's manifest grants native access too (Enable-Native-Access: ALL-UNNAMED);
# the flag says so on the command line.
cmd=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$jar" "$@")
if [ "$where" = vm ]; then
    say "no RDMA device on this host: running verbs-info inside the SoftRoCE VM (rxe0)"
    cd "$VERBS_ROOT"
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${cmd[@]}"
fi
exec "${cmd[@]}"
