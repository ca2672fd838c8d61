package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.ffm.ibv_mw_bind_info;
import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The remote side of one {@link SendWorkRequest}: writes its native {@code wr} union
 * ({@code rdma}, {@code atomic}, {@code ud}) and {@code bind_mw}, and remembers what it holds and
 * the Java objects behind it (address handle, window and region) for the post-time checks in
 * {@link SendPath}. The setters allocate nothing. What a post reads (the kind, the address handle,
 * a BIND_MW's window, region and rkey) are plain fields, read directly: a post runs no code here.
 */
final class SendWrUnion {
    private static final String VERB = "ibv_post_send";

    private static final long WR_UNION = ibv_send_wr.LAYOUT.byteOffset(groupElement("wr"));
    private static final long WR_UNION_SIZE = ibv_send_wr.LAYOUT.select(groupElement("wr")).byteSize();
    private static final long RDMA_REMOTE_ADDR = unionOffset("rdma", "remote_addr");
    private static final long RDMA_RKEY = unionOffset("rdma", "rkey");
    private static final long ATOMIC_REMOTE_ADDR = unionOffset("atomic", "remote_addr");
    private static final long ATOMIC_COMPARE_ADD = unionOffset("atomic", "compare_add");
    private static final long ATOMIC_SWAP = unionOffset("atomic", "swap");
    private static final long ATOMIC_RKEY = unionOffset("atomic", "rkey");
    private static final long UD_AH = unionOffset("ud", "ah");
    private static final long UD_REMOTE_QPN = unionOffset("ud", "remote_qpn");
    private static final long UD_REMOTE_QKEY = unionOffset("ud", "remote_qkey");
    private static final long BIND_MW = ibv_send_wr.bind_mw$OFFSET;
    private static final long BIND_MW_MW = BIND_MW + ibv_send_wr.bind_mw.mw$OFFSET;
    private static final long BIND_MW_RKEY = BIND_MW + ibv_send_wr.bind_mw.rkey$OFFSET;
    private static final long BIND_INFO = BIND_MW + ibv_send_wr.bind_mw.bind_info$OFFSET;

    /** What the {@code wr} union holds, so a post can tell an RDMA request from an atomic one. */
    static final int REMOTE_NONE = 0;
    static final int REMOTE_RDMA = 1;
    static final int REMOTE_ATOMIC = 2;
    static final int REMOTE_UD = 3;
    static final int REMOTE_BIND = 4;

    /** The request's whole native {@code struct ibv_send_wr}. */
    private final MemorySegment request;
    /** One of the {@code REMOTE_*} constants; read directly by {@link SendWorkRequest#remoteKind()}. */
    int kind = REMOTE_NONE;
    /** A UD request's address handle, else null; read directly by {@link SendWorkRequest#addressHandle()}. */
    AddressHandle addressHandle;
    /** The window and region of a BIND_MW (else null), and the rkey it asks for; read directly. */
    MemoryWindow bindWindow;
    MemoryRegion bindRegion;
    int bindRkey;

    SendWrUnion(MemorySegment request) {
        this.request = request;
    }

    private static long unionOffset(String member, String field) {
        return WR_UNION + ibv_send_wr.LAYOUT.select(groupElement("wr"))
                .byteOffset(groupElement(member), groupElement(field));
    }

    /** {@code wr.rdma}. */
    void rdma(long remoteAddress, int rkey) {
        clear();
        request.set(JAVA_LONG, RDMA_REMOTE_ADDR, remoteAddress);
        request.set(JAVA_INT, RDMA_RKEY, rkey);
        kind = REMOTE_RDMA;
    }

    /** {@code wr.atomic}; the caller sets the opcode afterwards. */
    void atomic(WorkRequestOpcode atomicOpcode, long remoteAddress, int rkey, long compareAdd, long swap) {
        if ((remoteAddress & 7) != 0) {
            throw new IllegalArgumentException(VERB + ": " + atomicOpcode
                    + " needs an 8-byte aligned remote address, got 0x" + Long.toHexString(remoteAddress));
        }
        clear();
        request.set(JAVA_LONG, ATOMIC_REMOTE_ADDR, remoteAddress);
        request.set(JAVA_LONG, ATOMIC_COMPARE_ADD, compareAdd);
        request.set(JAVA_LONG, ATOMIC_SWAP, swap);
        request.set(JAVA_INT, ATOMIC_RKEY, rkey);
        kind = REMOTE_ATOMIC;
    }

    /** {@code wr.ud}. */
    void ud(AddressHandle addressHandle, int remoteQpn, int remoteQkey) {
        Objects.requireNonNull(addressHandle, VERB + ": address handle");
        if (remoteQpn < 0 || remoteQpn > 0xFF_FFFF) {
            throw new IllegalArgumentException(VERB + ": remote_qpn must be in 0..16777215, got " + remoteQpn);
        }
        if (addressHandle.isClosed()) {
            throw addressHandle.closedException();
        }
        clear();
        request.set(JAVA_LONG, UD_AH, addressHandle.handleAddress());
        request.set(JAVA_INT, UD_REMOTE_QPN, remoteQpn);
        request.set(JAVA_INT, UD_REMOTE_QKEY, remoteQkey);
        this.addressHandle = addressHandle;
        kind = REMOTE_UD;
    }

    /** {@code bind_mw}, after the checks {@link SendWorkRequest#bindMemoryWindow} documents; the caller sets the opcode. */
    void bindMemoryWindow(MemoryWindow window, int newRkey, MemoryRegion region, long offset,
            long length, Set<AccessFlag> access) {
        String verb = VERB + " BIND_MW";
        Objects.requireNonNull(window, verb + ": memory window is null");
        Objects.requireNonNull(region, verb + ": memory region is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        if (window.type() != MemoryWindowType.TYPE_2) {
            throw new IllegalArgumentException(verb + ": " + window + " is type 1: bind it with MemoryWindow.bind(...)"
                    + " (ibv_bind_mw); BIND_MW work requests bind type 2 windows");
        }
        RegistrationChecks.checkSameDomain(verb, window, window.protectionDomain(), region, region.protectionDomain());
        RegistrationChecks.checkBindRange(verb, flags, region, region.access(), region.length(), offset, length);
        int current = window.rkey();
        if ((newRkey >>> 8) != (current >>> 8)) {
            throw new IllegalArgumentException(verb + ": new rkey 0x" + Integer.toHexString(newRkey)
                    + " does not keep the upper 24 bits (the window index) of " + window
                    + "; only the low 8 bits are the consumer's key: use MemoryWindow.incrementRkey(window.rkey())");
        }
        long address = region.addressAt(offset, length);
        clear();
        request.set(ADDRESS, BIND_MW_MW, window.handleSegment());
        request.set(JAVA_INT, BIND_MW_RKEY, newRkey);
        request.set(ADDRESS, BIND_INFO + ibv_mw_bind_info.mr$OFFSET, region.handleSegment());
        request.set(JAVA_LONG, BIND_INFO + ibv_mw_bind_info.addr$OFFSET, address);
        request.set(JAVA_LONG, BIND_INFO + ibv_mw_bind_info.length$OFFSET, length);
        request.set(JAVA_INT, BIND_INFO + ibv_mw_bind_info.mw_access_flags$OFFSET, BitFlag.toBits(flags));
        bindWindow = window;
        bindRegion = region;
        bindRkey = newRkey;
        kind = REMOTE_BIND;
    }

    private void clear() {
        // Eight bytes at a time (a C union's size is a multiple of its 8-byte alignment), not
        // asSlice(...).fill(0): the slice was a new segment on every rdma/atomic/ud setter, 40 B
        // per call until C2's escape analysis removed it.
        for (long at = 0; at < WR_UNION_SIZE; at += Long.BYTES) {
            request.set(JAVA_LONG, WR_UNION + at, 0L);
        }
        addressHandle = null;
        bindWindow = null;
        bindRegion = null;
        kind = REMOTE_NONE;
    }
}
