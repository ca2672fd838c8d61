#!/bin/busybox sh
# /init of the SoftRoCE VM's initramfs (busybox only). Loads the modules listed in
# /modules.order, mounts the host's root over 9p, brings up eth0 and rxe0, then runs the
# host-written script <run dir>/guest.sh inside a chroot of the host root. The run dir comes from
# the kernel command line (verbs.run=DIR); results go back through files in it.
# With verbs.rw=TAG:PATH,... the host root is mounted read-only and only those paths (separate 9p
# exports) are writable; /tmp is a tmpfs of the guest's own.
# In a two-host run (scripts/vm.sh --peer) the command line also has verbs.link=ADDR/PREFIX and
# verbs.linkmac=MAC: the NIC with that MAC (QEMU's dgram link to the other VM) becomes eth1 with
# ADDR, and rxe1 is created on it.
# verbs.provider=siw (scripts/vm.sh, VERBS_VM_PROVIDER) makes the devices soft-iWARP ones, siw0 and
# siw1, instead of rxe0 and rxe1: only one provider per netdev, because rdma_cm picks the device by
# the address it resolves, and two devices on one address would make that choice ambiguous.
# It must never exit: the kernel panics when init does. It ends with poweroff -f.

/bin/busybox mkdir -p /bin /proc /sys /dev /mnt /tmp
/bin/busybox --install -s /bin
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

RUN= LINK= LINKMAC= SHARES= PROVIDER=rxe
for arg in $(cat /proc/cmdline); do
    case "$arg" in
        verbs.run=*) RUN=${arg#verbs.run=} ;;
        verbs.rw=*) SHARES=${arg#verbs.rw=} ;;
        verbs.link=*) LINK=${arg#verbs.link=} ;;
        verbs.linkmac=*) LINKMAC=${arg#verbs.linkmac=} ;;
        verbs.provider=*) PROVIDER=${arg#verbs.provider=} ;;
    esac
done

# Stops the VM; the host reads the status files. Never returns.
halt_vm() {
    sync
    poweroff -f
    while true; do sleep 60; done
}

# Reports a guest-side failure on the console and, once the share is mounted, in guest-error.
guest_fail() {
    echo "verbs-vm: $*" >/dev/console
    [ -n "$RUN" ] && [ -d "/mnt$RUN" ] && echo "$*" >"/mnt$RUN/guest-error"
    halt_vm
}

[ -n "$RUN" ] || guest_fail "no verbs.run=DIR on the kernel command line"

for m in $(cat /modules.order); do
    insmod "/modules/$m.ko" || guest_fail "insmod $m failed (see console.log)"
done

# The host's root, read-only when verbs.rw=TAG:PATH,... names the writable shares (each its own
# 9p export, mounted over its path); then /tmp is the guest's own.
NINEP=trans=virtio,version=9p2000.L,msize=512000,cache=mmap
mount -t 9p -o "$NINEP${SHARES:+,ro}" hostroot /mnt || guest_fail "mounting the host root over 9p failed"
# /tmp first, then the shares: a project (or run folder) under the host's /tmp is mounted on top of
# the guest's own /tmp, its mount point made in that tmpfs.
[ -z "$SHARES" ] || mount -t tmpfs tmpfs /mnt/tmp || guest_fail "mount tmpfs on /tmp in chroot failed"
for share in $(echo "$SHARES" | tr ',' ' '); do
    mkdir -p "/mnt${share#*:}" 2>/dev/null
    mount -t 9p -o "$NINEP" "${share%%:*}" "/mnt${share#*:}" \
        || guest_fail "mounting the writable share ${share#*:} over 9p failed"
done
[ -f "/mnt$RUN/guest.sh" ] || guest_fail "/mnt$RUN/guest.sh is missing on the shared root"

# Fresh kernel filesystems for the chroot; the host's own /proc etc. are not ours to use.
mount -t proc proc /mnt/proc || guest_fail "mount proc in chroot failed"
mount -t sysfs sysfs /mnt/sys || guest_fail "mount sysfs in chroot failed"
mount -t devtmpfs devtmpfs /mnt/dev || guest_fail "mount devtmpfs in chroot failed"
mkdir -p /mnt/dev/pts /mnt/dev/shm
mount -t devpts devpts /mnt/dev/pts
mount -t tmpfs tmpfs /mnt/dev/shm

ip link set lo up
ip link set eth0 up || guest_fail "no eth0 (virtio_net not working?)"
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2 2>/dev/null
# rdma (iproute2) comes from the host root; busybox has none.
chroot /mnt rdma link add "${PROVIDER}0" type "$PROVIDER" netdev eth0 \
    || guest_fail "rdma link add ${PROVIDER}0 type $PROVIDER netdev eth0 failed (see console.log)"

# The link to the other VM: found by its MAC, named eth1, addressed, rxe1 on it.
if [ -n "$LINK" ]; then
    linkdev=
    for dev in /sys/class/net/*; do
        [ "$(cat "$dev/address" 2>/dev/null)" = "$LINKMAC" ] && linkdev=${dev##*/}
    done
    [ -n "$linkdev" ] || guest_fail "no NIC with the link's MAC $LINKMAC"
    [ "$linkdev" = eth1 ] || ip link set "$linkdev" name eth1 || guest_fail "renaming $linkdev to eth1 failed"
    ip link set eth1 up || guest_fail "ip link set eth1 up failed"
    ip addr add "$LINK" dev eth1 || guest_fail "ip addr add $LINK dev eth1 failed"
    chroot /mnt rdma link add "${PROVIDER}1" type "$PROVIDER" netdev eth1 \
        || guest_fail "rdma link add ${PROVIDER}1 type $PROVIDER netdev eth1 failed (see console.log)"
    echo "verbs-vm: eth1 $LINK, ${PROVIDER}1 up" >/dev/console
fi

echo "verbs-vm: ${PROVIDER}0 up, running the command" >/dev/console
chroot /mnt /bin/bash "$RUN/guest.sh"
echo "$?" >"/mnt$RUN/guest-exit"
halt_vm
