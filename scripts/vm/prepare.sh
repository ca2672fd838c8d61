# Prepares, once per kernel version, the SoftRoCE VM's kernel and initramfs in the cache:
#   $VERBS_CACHE/vm/<kernel version>/vmlinuz, initrd.gz, extracted/ (dpkg -x of the kernel package)
# Source it (needs common.sh); call vm_prepare, which sets VM_DIR and VM_INITRD. The kernel package
# is downloaded with apt-get download and unpacked, never installed.
# VERBS_VM_PROVIDER=siw (default rxe) asks for soft-iWARP instead: Debian's kernels ship no siw.ko,
# so vm_prepare builds it once per kernel version out of tree (linux-source + the matching
# linux-headers, installed when root) into <kernel version>/siw/siw.ko, and packs a second
# initramfs, initrd-siw.gz, that also loads siw and its dependencies (docs/siw.md).
# shellcheck shell=bash

# Modules the guest needs beyond their dependencies. crc32_generic is not a declared dependency
# of rdma_rxe but rxe asks the crypto API for crc32 at `rdma link add` and fails without it.
# sch_netem: packet loss and delay on the two-host link (tc qdisc ... netem); rdma_ucm (with
# rdma_cm, iw_cm, ib_cm, configfs): /dev/infiniband/rdma_cm, which any rdma_cm use needs.
VM_WANTED_MODULES=(virtio_pci 9pnet_virtio 9p virtio_net ib_core ib_uverbs crc32_generic rdma_rxe sch_netem rdma_ucm)
# What siw.ko needs from the kernel package: libcrc32c (a declared dependency) and, before it,
# crc32c_generic: libcrc32c (a softdep, which busybox insmod does not follow) and siw ask the
# crypto API for "crc32c" when they load, and fail with ENOENT without it (busybox says "unknown
# symbol in module, or unknown parameter").
VM_SIW_MODULES=(crc32c_generic libcrc32c)

# Prints the versioned kernel package to boot: by default the one linux-image-amd64 depends on
# (Debian 12's 6.1, e.g. linux-image-6.1.0-56-amd64); with VERBS_VM_KERNEL=<series> (e.g. 6.12) the
# newest linux-image-<series>.N+debNN-amd64-unsigned the package lists know (bookworm's backported
# kernels; unsigned: the VM boots it directly, without shim).
vm_kernel_package() {
    if [ -n "${VERBS_VM_KERNEL:-}" ]; then
        [[ "$VERBS_VM_KERNEL" =~ ^[0-9]+\.[0-9]+$ ]] || die "VERBS_VM_KERNEL must be a kernel series such as 6.12, not $VERBS_VM_KERNEL"
        apt-cache search --names-only "^linux-image-${VERBS_VM_KERNEL//./\\.}\.[0-9]+\+deb[0-9]+-amd64-unsigned\$" 2>/dev/null \
            | cut -d' ' -f1 | sort -V | tail -n1
        return 0
    fi
    apt-cache depends linux-image-amd64 2>/dev/null \
        | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1
}

# The kernel release (uname -r) of a kernel package: its name without linux-image- and -unsigned.
vm_kernel_release() {
    local kver=${1#linux-image-}
    printf '%s\n' "${kver%-unsigned}"
}

# Resolves the kernel package, running apt-get update once if the package lists are empty.
vm_resolve_kernel_package() {
    local pkg
    pkg=$(vm_kernel_package)
    if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
        say "apt-get update (package lists do not know linux-image-amd64)"
        apt-get update -qq >&2 || die "apt-get update failed"
        pkg=$(vm_kernel_package)
    fi
    printf '%s\n' "$pkg"
}

# Prints the module names (no .ko) needed for $VM_WANTED_MODULES and any further names given
# ($2...), dependencies first, from modules.dep of the extracted kernel ($1 = lib/modules/<version>).
vm_module_order() {
    local moddir=$1 seen=" " m
    visit() {
        local name=$1 line deps d
        case "$seen" in *" $name "*) return ;; esac
        # "|| true": no line is an answer here (a built-in module), not a failure of the pipeline.
        line=$(grep -E "(^|/)${name}\.ko(\.[a-z]+)?:" "$moddir/modules.dep" | head -n1 || true)
        if [ -z "$line" ] && grep -qE "(^|/)${name}\.ko\$" "$moddir/modules.builtin" 2>/dev/null; then
            seen="$seen$name "
            return 0 # built into this kernel: nothing to load
        fi
        [ -n "$line" ] || die "kernel module $name not found in $moddir/modules.dep"
        deps=${line#*:}
        for d in $deps; do
            d=${d##*/}
            visit "${d%%.ko*}"
        done
        seen="$seen$name "
        printf '%s\n' "$name"
    }
    for m in "${VM_WANTED_MODULES[@]}" "${@:2}"; do visit "$m"; done
}

# Copies one module (uncompressing .ko.xz/.ko.zst: busybox insmod reads plain ELF) to $3/$1.ko.
vm_copy_module() {
    local name=$1 moddir=$2 dest=$3 rel
    rel=$(grep -E "(^|/)${name}\.ko(\.[a-z]+)?:" "$moddir/modules.dep" | head -n1 | cut -d: -f1)
    case "$rel" in
        *.ko)     cp "$moddir/$rel" "$dest/$name.ko" ;;
        *.ko.xz)  xz -dc "$moddir/$rel" >"$dest/$name.ko" ;;
        *.ko.zst) zstd -qdc "$moddir/$rel" >"$dest/$name.ko" ;;
        *.ko.gz)  gzip -dc "$moddir/$rel" >"$dest/$name.ko" ;;
        *) die "unexpected module file $rel" ;;
    esac
}

# Builds an initramfs in $1 from the extracted kernel of version $2: initrd.gz, or with $3 = siw
# initrd-siw.gz, which also holds siw's dependencies and the siw.ko built by vm_build_siw, last.
vm_build_initramfs() {
    local dir=$1 kver=$2 provider=${3:-rxe} moddir staging m name=initrd.gz extra=()
    moddir=$dir/extracted/lib/modules/$kver
    staging=$dir/initramfs-$provider
    [ "$provider" = siw ] && name=initrd-siw.gz extra=("${VM_SIW_MODULES[@]}")
    rm -rf "$staging"
    mkdir -p "$staging/bin" "$staging/modules" "$staging/proc" "$staging/sys" "$staging/dev" \
        "$staging/mnt" "$staging/tmp"
    cp /bin/busybox "$staging/bin/busybox"
    install -m 0755 "$VERBS_ROOT/scripts/vm/init.sh" "$staging/init"
    vm_module_order "$moddir" "${extra[@]}" >"$staging/modules.order"
    while read -r m; do vm_copy_module "$m" "$moddir" "$staging/modules"; done <"$staging/modules.order"
    if [ "$provider" = siw ]; then
        cp "$dir/siw/siw.ko" "$staging/modules/siw.ko"
        echo siw >>"$staging/modules.order"
    fi
    (cd "$staging" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) >"$dir/$name.tmp"
    mv "$dir/$name.tmp" "$dir/$name"
    rm -rf "$staging"
}

# Builds siw.ko for kernel $2 into $1/siw/siw.ko, once: the siw sources from Debian's
# linux-source-<major.minor> tarball, compiled out of tree against linux-headers-$2 (whose kbuild
# and compiler packages come with it). The module's vermagic must be the guest kernel's, so the
# headers must be those of exactly that kernel package. Stripped of debug info (5 MB -> ~0.3 MB).
vm_build_siw() {
    local dir=$1 kver=$2 series src build
    [ -f "$dir/siw/siw.ko" ] && return 0
    series=${kver%%-*}              # 6.1.0
    series=${series%.*}             # 6.1
    src=/usr/src/linux-source-$series.tar.xz
    ensure_packages make binutils "linux-source-$series" "linux-headers-$kver"
    [ -f "$src" ] || die "linux-source-$series installed no $src"
    build=$dir/siw/build
    rm -rf "$build"
    mkdir -p "$build"
    say "building siw.ko for $kver (out of tree, from linux-source-$series)"
    tar -xJf "$src" -C "$build" --strip-components=1 --wildcards "linux-source-$series/drivers/infiniband/sw/siw/*" \
        || die "extracting the siw sources from $src failed"
    make -s -C "/usr/src/linux-headers-$kver" M="$build/drivers/infiniband/sw/siw" CONFIG_RDMA_SIW=m modules >&2 \
        || die "building siw.ko against linux-headers-$kver failed"
    modinfo -F vermagic "$build/drivers/infiniband/sw/siw/siw.ko" | grep -q "^$kver " \
        || die "siw.ko's vermagic is not $kver: $(modinfo -F vermagic "$build/drivers/infiniband/sw/siw/siw.ko")"
    strip --strip-debug -o "$dir/siw/siw.ko.tmp" "$build/drivers/infiniband/sw/siw/siw.ko"
    mv "$dir/siw/siw.ko.tmp" "$dir/siw/siw.ko"
    rm -rf "$build"
}

# Sets VM_DIR to a ready cache folder (vmlinuz + initrd.gz), preparing it if needed, and VM_INITRD
# to the initramfs of the provider VERBS_VM_PROVIDER asks for (rxe: initrd.gz, siw: initrd-siw.gz).
vm_prepare() {
    local provider=${VERBS_VM_PROVIDER:-rxe}
    case "$provider" in rxe|siw) ;; *) die "VERBS_VM_PROVIDER must be rxe or siw, not $provider" ;; esac
    vm_prepare_kernel
    VM_INITRD=$VM_DIR/initrd.gz
    [ "$provider" = siw ] || return 0
    VM_INITRD=$VM_DIR/initrd-siw.gz
    if [ -f "$VM_INITRD" ] && [ "$VM_INITRD" -nt "$VM_DIR/initrd.gz" ] && [ -f "$VM_DIR/siw/siw.ko" ]; then
        return 0
    fi
    vm_build_siw "$VM_DIR" "$(basename "$VM_DIR")"
    say "building the siw initramfs for $(basename "$VM_DIR")"
    vm_build_initramfs "$VM_DIR" "$(basename "$VM_DIR")" siw
}

# Sets VM_DIR to a ready cache folder (vmlinuz + initrd.gz), preparing it if needed.
vm_prepare_kernel() {
    local pkg kver dir deb
    pkg=$(vm_resolve_kernel_package)
    if [ -z "$pkg" ]; then
        # Offline or not root: a cache prepared earlier still does.
        dir=$(find "$VERBS_CACHE/vm" -mindepth 2 -maxdepth 2 -name .ready -printf '%h\n' 2>/dev/null \
            | grep -E "/${VERBS_VM_KERNEL:-6.1}\.[^/]*$" | sort -V | tail -n1)
        [ -n "$dir" ] || die "cannot resolve the kernel package: apt-cache depends linux-image-amd64 gave nothing (run apt-get update as root)"
        VM_DIR=$dir
        return 0
    fi
    kver=$(vm_kernel_release "$pkg")
    dir=$VERBS_CACHE/vm/$kver
    # The initramfs also depends on init.sh: rebuild it when init.sh is newer.
    if [ -f "$dir/.ready" ] && [ "$dir/initrd.gz" -nt "$VERBS_ROOT/scripts/vm/init.sh" ] \
        && [ "$dir/initrd.gz" -nt "$VERBS_ROOT/scripts/vm/prepare.sh" ]; then
        VM_DIR=$dir
        return 0
    fi
    mkdir -p "$dir"
    if [ ! -f "$dir/extracted/boot/vmlinuz-$kver" ]; then
        say "downloading $pkg (unpacked into the cache, not installed)"
        rm -f "$dir"/*.deb
        (cd "$dir" && apt-get download -q "$pkg" >&2) || die "apt-get download $pkg failed"
        deb=$(ls "$dir"/"${pkg}"_*.deb 2>/dev/null | head -n1)
        [ -n "$deb" ] || die "apt-get download $pkg left no .deb in $dir"
        rm -rf "$dir/extracted"
        dpkg -x "$deb" "$dir/extracted" || die "dpkg -x $deb failed"
        rm -f "$deb"
        [ -f "$dir/extracted/boot/vmlinuz-$kver" ] || die "$pkg has no boot/vmlinuz-$kver"
        depmod -b "$dir/extracted" "$kver" || die "depmod -b $dir/extracted $kver failed"
    fi
    say "building the initramfs for $kver"
    cp "$dir/extracted/boot/vmlinuz-$kver" "$dir/vmlinuz"
    vm_build_initramfs "$dir" "$kver"
    touch "$dir/.ready"
    VM_DIR=$dir
}
