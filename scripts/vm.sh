# ./verbs vm [--peer PEER_CMD [--peer-report FILE]] -- CMD [ARGS...]: runs CMD inside a
# SoftRoCE (rxe) VM, in the current directory, with rxe0 up, and exits with CMD's status. See
# docs/rxe-vm.md for why it is a TCG VM sharing the host's root over 9p.
#
# Two hosts (--peer): a second VM, host B, boots next to host A and runs PEER_CMD (one string,
# split on spaces) while A runs CMD. QEMU joins them by a virtual link carried over a host-local
# Unix datagram socket pair (-netdev dgram): eth1 is 198.18.0.1/24 on A and 198.18.0.2/24 on B,
# with rxe1 on it (rxe0 on eth0 as in one-host runs). Both guests get VERBS_TWO_HOST_DIR (a folder
# of the run on the shared file system, for their coordination), VERBS_HOST (a or b),
# VERBS_LOCAL_ADDRESS, VERBS_PEER_ADDRESS, VERBS_TWO_HOST_DEVICE=rxe1 and VERBS_PEER_RUN_DIR (B's
# run folder: console.log, output, guest-exit). Each VM has a QMP socket in the run folder (qmp-a.sock,
# qmp-b.sock); the harness's link controller (when harness.jar is built) pulls B's cable or freezes
# B there when a fault test on A asks (TwoHosts, harness LinkControl). When A's VM stops, $VERBS_TWO_HOST_DIR/stop is written and B gets VERBS_VM_PEER_GRACE
# seconds to power off before it is killed. The script exits with A's status; B's outcome goes to
# --peer-report FILE (one line: "exit 0" when B's command succeeded, else what went wrong) and,
# when it failed, B's console is shown; without --peer-report a failed B fails this script.
#
# Environment:
#   VERBS_VM_TIMEOUT   seconds before the VM is killed and the run fails (default 3600: the whole
#                      device suite took over 40 minutes on a loaded 2-core host)
#   VERBS_VM_MEMORY    guest memory in MiB (default 4096); host B: VERBS_VM_PEER_MEMORY (4096: B runs a share of the one-host tests too)
#   VERBS_VM_PEER_GRACE  seconds B may take to stop after A stopped (default 60)
#   VERBS_VM_TCG_THREAD  single (default) or multi: QEMU's TCG threading. Multi-threaded TCG
#                      runs the two vCPUs on two host threads, but HotSpot's patching of freshly
#                      compiled code then crashed JVMs at random in the guest (SIGSEGV at C1
#                      method entries, about 1 fork in 3 in long JMH runs, never with one vCPU).
#                      Tests must not flake, so they run single-threaded; benchmarks may choose.
#   VERBS_VM_PROVIDER  rxe (default) or siw: soft-iWARP instead of SoftRoCE. siw0 on eth0 (and siw1
#                      on the link) take the place of rxe0 (rxe1), and VERBS_TEST_DEVICE /
#                      VERBS_TWO_HOST_DEVICE name them; siw.ko is built once per kernel (docs/siw.md).
#   VERBS_VM_KEEP=1    keep the run folder ($VERBS_CACHE/vm/runs/<id>) even on success
#   VERBS_VM_WRITABLE  more host paths the guest may write (colon-separated); see below
# What the guests can touch: the host's root is shared read-only; writable are only the project
# tree ($VERBS_ROOT), the current directory, the run folder, the JDK ($JAVA_HOME), the local Maven
# repository (~/.m2, and maven.repo.local from .mvn/maven.config) and VERBS_VM_WRITABLE, each its
# own 9p export. /tmp in the guest is its own tmpfs.
# CMD's output (stdout and stderr merged) is streamed to this script's stdout; B's goes to
# <run>/b/output (streamed too, each line prefixed "[host B] ").
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"
# shellcheck source=scripts/vm/prepare.sh
. "$VERBS_ROOT/scripts/vm/prepare.sh"

USAGE="usage: ./verbs vm [--peer PEER_CMD [--peer-report FILE]] -- CMD [ARGS...]"
PEER_CMD="" PEER_REPORT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --peer) [ $# -ge 2 ] || die "$USAGE"; PEER_CMD=$2; shift 2 ;;
        --peer-report) [ $# -ge 2 ] || die "$USAGE"; PEER_REPORT=$2; shift 2 ;;
        --) shift; break ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || die "$USAGE"
[ -z "$PEER_REPORT" ] || [ -n "$PEER_CMD" ] || die "--peer-report needs --peer"

# Already inside the VM (e.g. a script that calls ./verbs vm itself): just run the command.
if [ "${VERBS_IN_VM:-0}" = 1 ]; then
    exec "$@"
fi

TIMEOUT=${VERBS_VM_TIMEOUT:-3600}
PROVIDER=${VERBS_VM_PROVIDER:-rxe}
MEMORY=${VERBS_VM_MEMORY:-4096}
PEER_MEMORY=${VERBS_VM_PEER_MEMORY:-4096}
PEER_GRACE=${VERBS_VM_PEER_GRACE:-60}
TCG_THREAD=${VERBS_VM_TCG_THREAD:-single}
case "$TCG_THREAD" in single|multi) ;; *) die "VERBS_VM_TCG_THREAD must be single or multi, not $TCG_THREAD" ;; esac

ensure_packages "${PKGS_VM[@]}" "${PKGS_VERBS[@]}"

# One preparation at a time: two runs must not build the same cache folder together.
mkdir -p "$VERBS_CACHE/vm"
exec 9>"$VERBS_CACHE/vm/.lock"
flock 9
vm_prepare
exec 9>&-

# The run folder must be reachable at the same path in the guest (it is on the shared root).
RUN_DIR=$VERBS_CACHE/vm/runs/$(date +%Y%m%d-%H%M%S)-$$
case "$RUN_DIR" in *[[:space:]]*) die "the cache path must not contain spaces: $RUN_DIR" ;; esac
mkdir -p "$RUN_DIR"
RUN_DIR=$(cd "$RUN_DIR" && pwd -P)
: >"$RUN_DIR/output"

# JAVA_HOME for commands that run java; not fatal when there is none (e.g. ibv_devices).
if [ -z "${JAVA_HOME:-}" ]; then
    JAVA_HOME=$( (find_jdk && printf '%s' "$JAVA_HOME") 2>/dev/null || true)
fi

# The guest-side script of one host: environment, working directory, the command, output into
# the share. $1: the host's run folder; $2: a, b or "" (one host); the rest: the command.
write_guest_script() {
    local dir=$1 host=$2 name
    shift 2
    {
        echo '#!/bin/bash'
        echo "# Written by scripts/vm.sh for one run; executed by the VM's /init in a chroot."
        echo "export PATH=$(printf '%q' "${JAVA_HOME:+$JAVA_HOME/bin:}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")"
        [ -n "${JAVA_HOME:-}" ] && echo "export JAVA_HOME=$(printf '%q' "$JAVA_HOME")"
        echo "export HOME=$(printf '%q' "${HOME:-/root}") LANG=C.UTF-8"
        echo "export VERBS_IN_VM=1 VERBS_TEST_DEVICE=${PROVIDER}0"
        if [ -n "$host" ]; then
            local me=198.18.0.1 peer=198.18.0.2
            [ "$host" = b ] && me=198.18.0.2 peer=198.18.0.1
            echo "export VERBS_HOST=$host VERBS_TWO_HOST_DIR=$(printf '%q' "$TWO_HOST_DIR") VERBS_TWO_HOST_DEVICE=${PROVIDER}1"
            echo "export VERBS_LOCAL_ADDRESS=$me VERBS_PEER_ADDRESS=$peer VERBS_PEER_RUN_DIR=$(printf '%q' "$RUN_DIR/b")"
        fi
        # Pass through the caller's CI flag and every VERBS_*/MAVEN_* setting.
        for name in CI MAVEN_OPTS MAVEN_ARGS $(compgen -e | grep -E '^(VERBS|MAVEN)_' || true); do
            case "$name" in VERBS_IN_VM|VERBS_TEST_DEVICE|VERBS_HOST|VERBS_TWO_HOST_*|VERBS_*_ADDRESS|VERBS_PEER_RUN_DIR) continue ;; esac
            [ -n "${!name+x}" ] && echo "export $name=$(printf '%q' "${!name}")"
        done
        # Were the host's /tmp shared, a guest JVM would take the host JVMs' perf-data files for
        # stale ones (their pids do not exist in the guest) and delete them. /init gives the guest
        # a /tmp of its own; this keeps them hidden should that ever change.
        echo 'mkdir -p /tmp/hsperfdata_root && mount -t tmpfs tmpfs /tmp/hsperfdata_root'
        # siw in Linux 6.1 counts root's pinned pages against RLIMIT_MEMLOCK too (siw_umem_get, no
        # CAP_IPC_LOCK exemption as rxe's ib_umem_get has): its guests get the limit an RDMA
        # deployment sets (LimitMEMLOCK=infinity), so siw pins what rxe pins as root.
        [ "$PROVIDER" = siw ] && echo 'ulimit -l unlimited'
        echo "cd $(printf '%q' "$PWD") || exit 125"
        printf 'exec'
        printf ' %q' "$@"
        printf ' </dev/null >>%q 2>&1\n' "$dir/output"
    } >"$dir/guest.sh"
}

# The host paths the guest may write, one per line, each existing, resolved, and not inside another.
writable_paths() {
    local candidates=("$VERBS_ROOT" "$PWD" "$RUN_DIR" "${JAVA_HOME:-}" "${HOME:-/root}/.m2") p q keep
    local config=$VERBS_ROOT/.mvn/maven.config
    if [ -f "$config" ]; then
        candidates+=("$(sed -n 's/.*-Dmaven\.repo\.local=\([^ ]*\).*/\1/p' "$config" | head -n1)")
    fi
    IFS=: read -r -a extra <<<"${VERBS_VM_WRITABLE:-}"
    candidates+=("${extra[@]}")
    local resolved=()
    for p in "${candidates[@]}"; do
        [ -n "$p" ] && [ -d "$p" ] || continue
        p=$(cd "$p" && pwd -P)
        case "$p" in *[[:space:],:]*) die "a writable path for the VM must not contain spaces, commas or colons: $p" ;; esac
        [ "$p" != / ] || die "the VM cannot share / writable (VERBS_VM_WRITABLE)"
        resolved+=("$p")
    done
    for p in "${resolved[@]}"; do
        keep=1
        for q in "${resolved[@]}"; do
            [ "$p" != "$q" ] && case "$p/" in "$q"/*) keep=0 ;; esac
        done
        if [ "$keep" = 1 ]; then printf '%s\n' "$p"; fi
    done | sort -u
}

# qemu options for the shares: the root read-only, each writable path its own export (rwN),
# and the kernel argument that tells /init where to mount them.
share_args() {
    local n=0 p list=""
    printf '%s\n' -virtfs "local,path=/,mount_tag=hostroot,security_model=none,multidevs=remap,readonly=on"
    while read -r p; do
        printf '%s\n' -virtfs "local,path=$p,mount_tag=rw$n,security_model=none,multidevs=remap"
        list="$list${list:+,}rw$n:$p"
        n=$(( n + 1 ))
    done <<<"$WRITABLE"
    printf '%s\n' "-append-extra=verbs.rw=$list"
}

# Starts one VM's qemu (in the foreground; callers background it): $1 run folder of the host,
# $2 memory in MiB, $3 timeout in seconds, then extra qemu and kernel arguments as
# "-append-extra=TEXT" (added to the kernel command line) or plain qemu options; the file
# shares ($shares, from share_args) come first.
run_qemu() {
    local dir=$1 memory=$2 timeout=$3 append="" extra=() arg
    shift 3
    for arg in "${shares[@]}" "$@"; do
        case "$arg" in -append-extra=*) append="$append ${arg#-append-extra=}" ;; *) extra+=("$arg") ;; esac
    done
    # eth0: QEMU's user-mode network, restricted: nothing outside the VM is reachable through it.
    timeout -k 15 "$timeout" qemu-system-x86_64 -accel "tcg,thread=$TCG_THREAD" -m "$memory" -smp 2 \
        -nographic -no-reboot -monitor none -serial "file:$dir/console.log" \
        -kernel "$VM_DIR/vmlinuz" -initrd "$VM_INITRD" \
        -append "console=ttyS0 quiet panic=-1 verbs.run=$dir verbs.provider=$PROVIDER$append" \
        -nic user,model=virtio-net-pci,restrict=on \
        "${extra[@]}" </dev/null >"$dir/qemu.log" 2>&1
}

# The link NIC of host $1 (a or b): a dgram socket pair in the run folder, its own MAC, a QMP socket.
link_args() {
    local me=$1 other=a n=1
    [ "$me" = a ] && other=b
    [ "$me" = b ] && n=2
    printf '%s\n' -netdev "dgram,id=link,local.type=unix,local.path=$RUN_DIR/link-$me.sock,remote.type=unix,remote.path=$RUN_DIR/link-$other.sock" \
        -device "virtio-net-pci,netdev=link,mac=52:54:00:18:00:0$n" \
        -qmp "unix:$RUN_DIR/qmp-$me.sock,server=on,wait=off" \
        "-append-extra=verbs.link=198.18.0.$n/24 verbs.linkmac=52:54:00:18:00:0$n"
}

TWO_HOST_DIR=""
if [ -n "$PEER_CMD" ]; then
    TWO_HOST_DIR=$RUN_DIR/two-host
    mkdir -p "$TWO_HOST_DIR" "$RUN_DIR/b"
    : >"$RUN_DIR/b/output"
    # shellcheck disable=SC2086 # PEER_CMD is one string of words by contract
    write_guest_script "$RUN_DIR/b" b $PEER_CMD
    write_guest_script "$RUN_DIR" a "$@"
else
    write_guest_script "$RUN_DIR" "" "$@"
fi

if [ -n "$PEER_CMD" ]; then
    say "booting two $PROVIDER VMs ($(basename "$VM_DIR"), TCG, timeout ${TIMEOUT}s): host A runs: $*; host B runs: $PEER_CMD"
else
    say "booting the $PROVIDER VM ($(basename "$VM_DIR"), TCG, timeout ${TIMEOUT}s): $*"
fi
started=$(date +%s)
# Streams CMD's output as the guest appends it; stops once qemu is gone and the file is drained.
tail -n +1 -F "$RUN_DIR/output" 2>/dev/null &
tail_pid=$!
peer_pid="" peer_tail_pid="" control_pid=""
# Whatever ends this script (a signal, a closed pipe, an error), the streaming tails and B go too.
# B's qemu runs under `timeout` in a background subshell: stop that timeout (it passes the signal on).
stop_peer() {
    [ -n "$peer_pid" ] || return 0
    pkill -TERM -P "$peer_pid" 2>/dev/null || true
    kill "$peer_pid" 2>/dev/null || true
}
trap 'kill $tail_pid $peer_tail_pid $control_pid 2>/dev/null || true; stop_peer' EXIT

WRITABLE=$(writable_paths) || exit 1
mapfile -t shares < <(share_args)
set +e
if [ -n "$PEER_CMD" ]; then
    mapfile -t peer_link < <(link_args b)
    # B may outlive A by the grace period at most.
    run_qemu "$RUN_DIR/b" "$PEER_MEMORY" $(( TIMEOUT + PEER_GRACE )) "${peer_link[@]}" &
    peer_pid=$!
    tail -n +1 -F "$RUN_DIR/b/output" 2>/dev/null | sed -u 's/^/[host B] /' &
    peer_tail_pid=$!
    # The host's side of the fault tests (harness LinkControl): QMP set_link/stop/cont on a VM when
    # host A's tests ask for it; it stops with the run's stop mark.
    if [ -f "$VERBS_ROOT/harness/target/harness.jar" ] && [ -n "${JAVA_HOME:-}" ]; then
        "$JAVA_HOME/bin/java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$VERBS_ROOT/harness/target/harness.jar" \
            --root "$VERBS_ROOT" link-control "$RUN_DIR" >"$RUN_DIR/link-control.log" 2>&1 &
        control_pid=$!
    fi
    mapfile -t link < <(link_args a)
    run_qemu "$RUN_DIR" "$MEMORY" "$TIMEOUT" "${link[@]}"
else
    run_qemu "$RUN_DIR" "$MEMORY" "$TIMEOUT"
fi
qemu_status=$?
peer_status=""
if [ -n "$PEER_CMD" ]; then
    # A is done: tell B's agent to stop, and wait for B (its qemu enforces the grace period too).
    : >"$TWO_HOST_DIR/stop"
    waited=0
    while kill -0 "$peer_pid" 2>/dev/null && [ "$waited" -lt "$PEER_GRACE" ]; do
        sleep 1
        waited=$(( waited + 1 ))
    done
    if kill -0 "$peer_pid" 2>/dev/null; then
        stop_peer
        peer_status=killed
    fi
    wait "$peer_pid" 2>/dev/null
    [ -n "$peer_status" ] || peer_status=$?
    peer_pid=""
fi
set -e
sleep 1 # let tail print the last lines
kill "$tail_pid" $peer_tail_pid 2>/dev/null || true
wait "$tail_pid" 2>/dev/null || true
elapsed=$(( $(date +%s) - started ))

# Keeps the last 5 finished runs for inspection. Never touches a run without its `finished`
# mark unless it is older than a day: other VMs may be running from this cache right now.
prune_runs() {
    local runs=$VERBS_CACHE/vm/runs
    { ls -1t "$runs"/*/finished 2>/dev/null || true; } | tail -n +6 | xargs -r -n1 dirname | xargs -r rm -rf
    find "$runs" -mindepth 1 -maxdepth 1 -type d -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
}

# Shows the last lines of one host's console and qemu log: $1 its run folder, $2 its name.
show_console_of() {
    local dir=$1 name=$2
    echo "---- last lines of the VM console of $name ($dir/console.log) ----" >&2
    # Strip the firmware's terminal escapes and carriage returns from the serial log.
    tail -n 30 "$dir/console.log" 2>/dev/null | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g; s/\x1b[()][0-9A-Za-z]//g; s/\r//g' >&2 || true
    if [ -s "$dir/qemu.log" ]; then
        echo "---- qemu of $name ($dir/qemu.log) ----" >&2
        tail -n 10 "$dir/qemu.log" >&2
    fi
}

show_console() {
    touch "$RUN_DIR/finished"
    if [ -n "$PEER_CMD" ]; then show_console_of "$RUN_DIR" "host A"; else show_console_of "$RUN_DIR" "the VM"; fi
}

# Host B's outcome, one line: "exit 0" when its command succeeded, else what went wrong.
peer_outcome() {
    local status
    if [ "$peer_status" = killed ]; then
        echo "did not stop within ${PEER_GRACE}s after host A (killed); see $RUN_DIR/b/console.log"
    elif [ "$peer_status" -eq 124 ] || [ "$peer_status" -eq 137 ]; then
        echo "timed out; see $RUN_DIR/b/console.log"
    elif [ -f "$RUN_DIR/b/guest-error" ]; then
        echo "failed before running its command: $(cat "$RUN_DIR/b/guest-error"); see $RUN_DIR/b/console.log"
    elif [ ! -f "$RUN_DIR/b/guest-exit" ]; then
        echo "stopped without reporting its command's exit status (qemu exit $peer_status): boot failure or crash; see $RUN_DIR/b/console.log"
    else
        status=$(cat "$RUN_DIR/b/guest-exit")
        case "$status" in
            0) echo "exit 0" ;;
            *) echo "exit $status; its output: $RUN_DIR/b/output" ;;
        esac
    fi
}

peer_ok=1
if [ -n "$PEER_CMD" ]; then
    outcome=$(peer_outcome)
    [ -z "$PEER_REPORT" ] || printf '%s\n' "$outcome" >"$PEER_REPORT"
    if [ "$outcome" = "exit 0" ]; then
        say "host B finished: exit 0"
    else
        peer_ok=0
        show_console_of "$RUN_DIR/b" "host B"
        say "host B failed: $outcome"
        [ -n "$PEER_REPORT" ] || { touch "$RUN_DIR/finished"; die "host B failed: $outcome"; }
    fi
fi

if [ "$qemu_status" -eq 124 ] || [ "$qemu_status" -eq 137 ]; then
    show_console
    die "the VM timed out after ${TIMEOUT}s (VERBS_VM_TIMEOUT) running: $*"
fi
if [ -f "$RUN_DIR/guest-error" ]; then
    show_console
    die "the VM failed before running the command: $(cat "$RUN_DIR/guest-error")"
fi
if [ ! -f "$RUN_DIR/guest-exit" ]; then
    show_console
    die "the VM stopped without reporting the command's exit status (qemu exit $qemu_status): boot failure or crash"
fi
status=$(cat "$RUN_DIR/guest-exit")
case "$status" in ''|*[!0-9]*) show_console; die "unreadable exit status '$status' in $RUN_DIR/guest-exit" ;; esac
say "VM run finished in ${elapsed}s: exit status $status"

touch "$RUN_DIR/finished"
if [ "$status" -eq 0 ] && [ "$peer_ok" = 1 ] && [ "${VERBS_VM_KEEP:-0}" != 1 ]; then
    rm -rf "$RUN_DIR"
fi
prune_runs
exit "$status"
