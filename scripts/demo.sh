#!/usr/bin/env bash
# ./verbs demo [--host|--vm] [DEVICE]: the main job. Builds the library, then runs
# dev.panamaverbs.demo.Demo on this host when it has an RDMA device (or --host), else inside the
# SoftRoCE VM (or --vm): availability, devices, and an RC exchange verified byte for byte.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
. "$VERBS_ROOT/scripts/common.sh"
. "$VERBS_ROOT/scripts/stage.sh"

where=auto
case "${1:-}" in
    --host) where=host; shift ;;
    --vm) where=vm; shift ;;
esac
if [ "$where" = auto ]; then
    if [ "${VERBS_IN_VM:-0}" = 1 ] || [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
        where=host
    else
        where=vm
    fi
fi

find_jdk
ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}"
[ "$where" = vm ] && ensure_packages "${PKGS_VM[@]}"

say "building (mvn install -DskipTests)"
mvn_run -q -pl verbs-core -am install -DskipTests

# The module path: our three library modules and SLF4J (API + a simple provider for the demo).
demo_dir=$VERBS_ROOT/target/demo
rm -rf "$demo_dir" && mkdir -p "$demo_dir/modules" "$demo_dir/launcher"
for m in verbs-ffm verbs-loader verbs-core; do
    cp "$VERBS_ROOT/$m/target/$m"-*[0-9T].jar "$demo_dir/modules/"
done
stage_launcher_jars "$demo_dir/launcher"
cp "$demo_dir/launcher"/slf4j-*.jar "$demo_dir/modules/"

cmd=("$JAVA_HOME/bin/java" --module-path "$demo_dir/modules"
     --enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader
     -m dev.panamaverbs.core/dev.panamaverbs.demo.Demo "$@")
if [ "$where" = vm ]; then
    say "no RDMA device on this host: running the demo inside the SoftRoCE VM (rxe0)"
    exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${cmd[@]}"
fi
exec "${cmd[@]}"
