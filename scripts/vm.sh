# ./verbs vm -- CMD [ARGS...]: runs CMD inside a SoftRoCE (rxe) VM, in the current directory,
# with rxe0 up, and exits with CMD's status. See docs/rxe-vm.md for why it is a
# TCG VM sharing the host's root over 9p.
#
# Environment:
#   VERBS_VM_TIMEOUT   seconds before the VM is killed and the run fails (default 2400)
#   VERBS_VM_MEMORY    guest memory in MiB (default 4096)
#   VERBS_VM_TCG_THREAD  single (default) or multi: QEMU's TCG threading. Multi-threaded TCG
#                      runs the two vCPUs on two host threads, but HotSpot's patching of freshly
#                      compiled code then crashed JVMs at random in the guest (SIGSEGV at C1
#                      method entries, about 1 fork in 3 in long JMH runs, never with one vCPU).
#                      Tests must not flake, so they run single-threaded; benchmarks may choose.
#   VERBS_VM_KEEP=1    keep the run folder ($VERBS_CACHE/vm/runs/<id>) even on success
# CMD's output (stdout and stderr merged) is streamed to this script's stdout.
set -euo pipefail
VERBS_ROOT=${VERBS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=scripts/common.sh
. "$VERBS_ROOT/scripts/common.sh"
# shellcheck source=scripts/vm/prepare.sh
. "$VERBS_ROOT/scripts/vm/prepare.sh"

[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || die "usage: ./verbs vm -- CMD [ARGS...]"

# Already inside the VM (e.g. a script that calls ./verbs vm itself): just run the command.
if [ "${VERBS_IN_VM:-0}" = 1 ]; then
    exec "$@"
fi

TIMEOUT=${VERBS_VM_TIMEOUT:-2400}
MEMORY=${VERBS_VM_MEMORY:-4096}
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

# The guest-side script: environment, working directory, the command, output into the share.
write_guest_script() {
    local name
    {
        echo '#!/bin/bash'
        echo "# Written by scripts/vm.sh for one run; executed by the VM's /init in a chroot."
        echo "export PATH=$(printf '%q' "${JAVA_HOME:+$JAVA_HOME/bin:}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")"
        [ -n "${JAVA_HOME:-}" ] && echo "export JAVA_HOME=$(printf '%q' "$JAVA_HOME")"
        echo "export HOME=$(printf '%q' "${HOME:-/root}") LANG=C.UTF-8"
        echo "export VERBS_IN_VM=1 VERBS_TEST_DEVICE=rxe0"
        # Pass through the caller's CI flag and every VERBS_*/MAVEN_* setting.
        for name in CI MAVEN_OPTS MAVEN_ARGS $(compgen -e | grep -E '^(VERBS|MAVEN)_' || true); do
            case "$name" in VERBS_IN_VM|VERBS_TEST_DEVICE) continue ;; esac
            [ -n "${!name+x}" ] && echo "export $name=$(printf '%q' "${!name}")"
        done
        # The host's /tmp is shared: a guest JVM would take the host JVMs' perf-data files for
        # stale ones (their pids do not exist in the guest) and delete them. Hide them.
        echo 'mkdir -p /tmp/hsperfdata_root && mount -t tmpfs tmpfs /tmp/hsperfdata_root'
        echo "cd $(printf '%q' "$PWD") || exit 125"
        printf 'exec'
        printf ' %q' "$@"
        printf ' </dev/null >>%q 2>&1\n' "$RUN_DIR/output"
    } >"$RUN_DIR/guest.sh"
}
write_guest_script "$@"

say "booting the rxe VM ($(basename "$VM_DIR"), TCG, timeout ${TIMEOUT}s): $*"
started=$(date +%s)
# Streams CMD's output as the guest appends it; stops once qemu is gone and the file is drained.
tail -n +1 -F "$RUN_DIR/output" 2>/dev/null &
tail_pid=$!
# Whatever ends this script (a signal, a closed pipe, an error), the streaming tail goes too.
trap 'kill "$tail_pid" 2>/dev/null || true' EXIT

set +e
timeout -k 15 "$TIMEOUT" qemu-system-x86_64 -accel "tcg,thread=$TCG_THREAD" -m "$MEMORY" -smp 2 \
    -nographic -no-reboot -monitor none -serial "file:$RUN_DIR/console.log" \
    -kernel "$VM_DIR/vmlinuz" -initrd "$VM_DIR/initrd.gz" \
    -append "console=ttyS0 quiet panic=-1 verbs.run=$RUN_DIR" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,multidevs=remap \
    -nic user,model=virtio-net-pci \
    </dev/null >"$RUN_DIR/qemu.log" 2>&1
qemu_status=$?
set -e
sleep 1 # let tail print the last lines
kill "$tail_pid" 2>/dev/null || true
wait "$tail_pid" 2>/dev/null || true
elapsed=$(( $(date +%s) - started ))

# Keeps the last 5 finished runs for inspection. Never touches a run without its `finished`
# mark unless it is older than a day: other VMs may be running from this cache right now.
prune_runs() {
    local runs=$VERBS_CACHE/vm/runs
    { ls -1t "$runs"/*/finished 2>/dev/null || true; } | tail -n +6 | xargs -r -n1 dirname | xargs -r rm -rf
    find "$runs" -mindepth 1 -maxdepth 1 -type d -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
}

show_console() {
    touch "$RUN_DIR/finished"
    echo "---- last lines of the VM console ($RUN_DIR/console.log) ----" >&2
    # Strip the firmware's terminal escapes and carriage returns from the serial log.
    tail -n 30 "$RUN_DIR/console.log" 2>/dev/null | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g; s/\x1b[()][0-9A-Za-z]//g; s/\r//g' >&2 || true
    if [ -s "$RUN_DIR/qemu.log" ]; then
        echo "---- qemu ($RUN_DIR/qemu.log) ----" >&2
        tail -n 10 "$RUN_DIR/qemu.log" >&2
    fi
}

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
if [ "$status" -eq 0 ] && [ "${VERBS_VM_KEEP:-0}" != 1 ]; then
    rm -rf "$RUN_DIR"
fi
prune_runs
exit "$status"
