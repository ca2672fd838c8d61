#!/usr/bin/env bash
# ./verbs generate [--check]: regenerates verbs-ffm/src/main/java from infiniband/verbs.h with
# the project's libclang-based generator (verbs-ffm/generator). --check regenerates in memory and
# fails (exit 1, differing files listed) if the committed tree differs.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"

check=false
for arg in "$@"; do
    case "$arg" in
        --check) check=true ;;
        -h|--help) echo "usage: ./verbs generate [--check]"; exit 0 ;;
        *) die "generate: unknown option $arg" ;;
    esac
done

find_jdk
ensure_packages "${PKGS_GENERATOR[@]}" "${PKGS_VERBS[@]}"

generator="$VERBS_ROOT/verbs-ffm/generator/src/dev/panamaverbs/generator/Main.java"
tree="$VERBS_ROOT/verbs-ffm/src/main/java"
report="$VERBS_ROOT/verbs-ffm/target/generator-report.txt"
mkdir -p "$(dirname "$report")"

if $check; then
    say "checking $tree against the generator's output"
    java --enable-native-access=ALL-UNNAMED "$generator" --check "$tree" --report "$report" >/dev/null \
        || die "generated sources drifted from infiniband/verbs.h: run ./verbs generate (report: $report)"
else
    say "generating $tree (coverage report: $report)"
    java --enable-native-access=ALL-UNNAMED "$generator" --out "$tree" --report "$report"
fi
