#!/usr/bin/env bash
# ./verbs generate [--check]: regenerates verbs-ffm/src/main/java from infiniband/verbs.h and
# rdma/rdma_cma.h with the project's libclang-based generator (verbs-ffm/generator). --check
# regenerates in memory and fails (exit 1, differing files listed) if the committed tree differs.
# Both fail on a coverage error (generator exit 3): a declaration neither emitted nor skipped with
# a reason, an exported function or function-pointer field without an invoker, a header in which
# nothing is found.
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
# The resolve-guard-call wrappers (dev.panamaverbs.gateway.Ibverbs) go to the loader module.
gateway="$VERBS_ROOT/verbs-loader/src/main/java"
report="$VERBS_ROOT/verbs-ffm/target/generator-report.txt"
mkdir -p "$(dirname "$report")"

if $check; then
    say "checking $tree against the generator's output"
    rm -f "$report"
    status=0
    java --enable-native-access=ALL-UNNAMED "$generator" --check "$tree" --gateway "$gateway" --report "$report" >/dev/null || status=$?
    # The report's summary block (per header: one found / emitted / skipped line per category,
    # the invoker lines) ends at its first empty line; the full report stays in $report.
    [[ -f $report ]] && sed '/^$/q' "$report"
    case $status in
        0) ;;
        3) die "generator coverage error: see the end of the report ($report)" ;;
        *) die "generated sources drifted from the headers: run ./verbs generate (report: $report)" ;;
    esac
else
    say "generating $tree (coverage report: $report)"
    java --enable-native-access=ALL-UNNAMED "$generator" --out "$tree" --gateway "$gateway" --report "$report"
fi
