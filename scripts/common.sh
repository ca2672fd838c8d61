# Shared helpers for ./verbs and the scripts under scripts/. Source it; do not run it.
# shellcheck shell=bash

VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
VERBS_CACHE=${VERBS_CACHE:-$VERBS_ROOT/.cache}
# depmod, ip, rdma live in /sbin and /usr/sbin, which a non-root PATH may lack.
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin:/sbin" ;; esac
export PATH

# Debian packages, by what needs them.
PKGS_BUILD=(maven gcc libc6-dev)
# ibverbs-utils, rdmacm-utils and perftest: the C tools the interop device tests run against ours.
PKGS_VERBS=(rdma-core libibverbs1 libibverbs-dev ibverbs-providers ibverbs-utils librdmacm1 librdmacm-dev rdmacm-utils perftest)
PKGS_GENERATOR=(libclang1-14 gcc)  # gcc: its builtin headers (stddef.h) stand in for libclang-common-14-dev
PKGS_VM=(qemu-system-x86 busybox-static cpio kmod iproute2 gzip)
PKGS_BENCH=(perftest)

say()  { printf '==> %s\n' "$*" >&2; }
die()  { printf 'verbs: %s\n' "$*" >&2; exit 1; }

# Prints the major version of the java binary given, or nothing.
java_major() {
    local v
    v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -n1)
    [ -n "$v" ] && printf '%s\n' "${v%%.*}"
}

# Finds a JDK >= 22: JAVA_HOME first, then the newest under /usr/lib/jvm. Exports JAVA_HOME.
find_jdk() {
    local candidate best="" best_major=0 major
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        major=$(java_major "$JAVA_HOME/bin/java")
        if [ -n "$major" ] && [ "$major" -ge 22 ]; then
            export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
            return 0
        fi
        say "JAVA_HOME=$JAVA_HOME is Java ${major:-?}; looking for a JDK >= 22 under /usr/lib/jvm"
    fi
    for candidate in /usr/lib/jvm/*; do
        [ -x "$candidate/bin/javac" ] || continue
        [ -L "$candidate" ] && continue
        major=$(java_major "$candidate/bin/java")
        if [ -n "$major" ] && [ "$major" -ge 22 ] && [ "$major" -gt "$best_major" ]; then
            best=$candidate best_major=$major
        fi
    done
    [ -n "$best" ] || die "no JDK >= 22 found (JAVA_HOME unset or older, nothing newer under /usr/lib/jvm).
Install one (e.g. Temurin 25) and set JAVA_HOME to it."
    export JAVA_HOME=$best PATH="$best/bin:$PATH"
}

apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

# Installs missing Debian packages when root; otherwise names what is missing and fails.
ensure_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        say "installing Debian packages: ${missing[*]}"
        # Package lists: fetch them when the machine has none; if an install still fails (stale
        # lists), refresh once and try again.
        if ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then
            apt-get update -qq >&2 || die "apt-get update failed"
        fi
        if ! apt_install "${missing[@]}"; then
            say "apt-get install failed; refreshing the package lists and trying once more"
            apt-get update -qq >&2 || die "apt-get update failed"
            apt_install "${missing[@]}" || die "apt-get install ${missing[*]} failed"
        fi
    else
        die "missing Debian packages: ${missing[*]}
Run as root to let ./verbs install them, or: sudo apt-get install ${missing[*]}"
    fi
}

# Maven, batch mode, on the JDK found above.
mvn_run() {
    command -v mvn >/dev/null || die "mvn not found (Debian package maven)"
    local opts=${MAVEN_OPTS:-}
    # Maven 3.8's bundled Guava uses sun.misc.Unsafe; JDK 23+ warns about it on every build.
    # That is Maven's own noise, not ours: allow it for Maven's JVM only.
    if [ "$(java_major "$JAVA_HOME/bin/java")" -ge 23 ]; then
        opts="$opts --sun-misc-unsafe-memory-access=allow"
    fi
    (cd "$VERBS_ROOT" && MAVEN_OPTS="$opts" mvn -B -ntp -Dstyle.color=never "$@")
}

# The harness (harness/, built by mvn install): staging and the test summary, in Java.
#   harness stage-tests DIR | stage-examples DIR | summary [options]   (see Harness.java)
harness() {
    local jar=$VERBS_ROOT/harness/target/harness.jar
    [ -f "$jar" ] || die "no $jar: build first (mvn install)"
    "$JAVA_HOME/bin/java" -jar "$jar" --root "$VERBS_ROOT" "$@"
}

# Where ./verbs runs a program: "host" when this machine (or the VM we are in) has an RDMA device,
# else "vm". An explicit --host/--vm wins. Usage: where=$(run_place "$requested") with requested
# being auto, host or vm.
run_place() {
    case "$1" in
        host|vm) echo "$1" ;;
        *) if [ "${VERBS_IN_VM:-0}" = 1 ] || [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
               echo host
           else
               echo vm
           fi ;;
    esac
}

# Runs the command given (exec) here, or inside the SoftRoCE VM when $1 is vm (saying $3 first);
# with a peer command ($2, may be empty) example-pair.sh runs the peer, then the command, in that
# one place. Usage: exec_with_peer "$where" "$peer" "running inside the VM" java ...
exec_with_peer() {
    local place=$1 peer=$2 message=$3 runner
    shift 3
    if [ -n "$peer" ]; then
        runner=(env VERBS_SKIP_BUILD=1 VERBS_EXAMPLE_PEER="$peer" bash "$VERBS_ROOT/scripts/example-pair.sh" "$@")
    else
        runner=("$@")
    fi
    if [ "$place" = vm ]; then
        say "$message"
        exec bash "$VERBS_ROOT/scripts/vm.sh" -- "${runner[@]}"
    fi
    exec "${runner[@]}"
}

# Reads a leading --host or --vm from the arguments given ("$@"), resolves where the program runs
# (run_place) into where, prepares that place (prepare_run), and sets place_args to how many
# arguments it took (0 or 1): the caller then does shift "$place_args".
choose_place() {
    local wanted=auto
    place_args=0
    case "${1:-}" in
        --host) wanted=host place_args=1 ;;
        --vm) wanted=vm place_args=1 ;;
    esac
    where=$(run_place "$wanted")
    prepare_run "$where"
}

# The JDK and the Debian packages a program run needs; the VM's too when it runs there ($1).
prepare_run() {
    find_jdk
    ensure_packages "${PKGS_BUILD[@]}" "${PKGS_VERBS[@]}"
    if [ "$1" = vm ]; then ensure_packages "${PKGS_VM[@]}"; fi
}
