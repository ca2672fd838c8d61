package dev.panamaverbs;

import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_xrcd;
import dev.panamaverbs.ffm.ibv_xrcd_init_attr;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An XRC domain (C {@code struct ibv_xrcd}): the scope of XRC shared receive queues
 * ({@link ProtectionDomain#createXrcSharedReceiveQueue}) and of XRC receive queue pairs, which
 * processes sharing the domain (through one file) open by number ({@link #openQueuePair(int)}).
 * Opened by {@link Context#openXrcDomain()} ({@code ibv_open_xrcd}); {@link #close()} closes what
 * was created in it first, then {@code ibv_close_xrcd}. SoftRoCE has no XRC
 * ({@link VerbsUnsupportedException}, EOPNOTSUPP).
 */
public final class XrcDomain extends ResourceCreation.OnContext {
    /** {@code O_CREAT} of Linux's fcntl.h. */
    private static final int O_CREAT = 0100;

    private XrcDomain(VerbsResource context, MemorySegment handle) {
        super("XrcDomain", handle, context, "ibv_close_xrcd", IbverbsCalls::ibv_close_xrcd);
    }

    /**
     * {@code ibv_open_xrcd} with {@code fd} ({@code -1}: a domain of this process only) and
     * {@code O_CREAT} when {@code create}: the factory hook behind {@link Context#openXrcDomain}.
     */
    static XrcDomain open(VerbsResource context, int fd, boolean create) {
        String verb = "ibv_open_xrcd";
        Objects.requireNonNull(context, verb + ": context is null");
        if (fd < -1) {
            throw new IllegalArgumentException(verb + ": fd must be -1 or a file descriptor, got " + fd);
        }
        return ResourceCreation.onContext(verb, ibv_xrcd.SIZE, context, arena -> {
            MemorySegment attr = arena.allocate(ibv_xrcd_init_attr.LAYOUT);
            ibv_xrcd_init_attr.comp_mask(attr, VerbsConstants.IBV_XRCD_INIT_ATTR_FD | VerbsConstants.IBV_XRCD_INIT_ATTR_OFLAGS);
            ibv_xrcd_init_attr.fd(attr, fd);
            ibv_xrcd_init_attr.oflags(attr, create ? O_CREAT : 0);
            return attr;
        }, IbverbsCalls::ibv_open_xrcd, XrcDomain::new);
    }

    /**
     * {@code ibv_open_qp}: opens the XRC receive queue pair {@code qpNumber} of this domain (one
     * another process created in the shared domain), so that this process receives through it too.
     *
     * @param qpNumber the queue pair's number (24 bits)
     * @return the opened queue pair; closing it ({@code ibv_destroy_qp}) drops this process's reference
     * @throws IllegalArgumentException if the number is not 24 bits
     * @throws VerbsException if the verb fails (e.g. no such queue pair in the domain)
     */
    public OpenedQueuePair openQueuePair(int qpNumber) {
        return OpenedQueuePair.open(this, qpNumber);
    }
}
