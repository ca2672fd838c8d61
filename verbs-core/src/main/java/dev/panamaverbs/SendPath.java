package dev.panamaverbs;

import dev.panamaverbs.internal.QueuePairTransitions;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.gateway.OpsTable;
import dev.panamaverbs.values.QueuePairCapabilities;
import java.lang.foreign.MemorySegment;

/**
 * A queue pair's send path, the one object every send goes through: {@link QueuePair#postSend}
 * (and so the one-sided channel) and {@link SendBatch}. It keeps the queue pair's send limits
 * (transport, opcodes, {@code max_send_sge}, {@code max_inline_data}, {@code max_send_wr}, the
 * protection domain), checks the queue pair's state and every request of a chain against them,
 * holds what the provider reads during the post (address handles, BIND_MW's window and region,
 * INLINE's regions), makes the {@code ibv_post_send} downcall and does the bookkeeping after it.
 * Allocation-free unless it throws.
 *
 * <p>A plain send (SEND, RDMA or atomic with region entries on RC or UC; no INLINE, BIND_MW or
 * LOCAL_INV) runs code of six files only: {@link QueuePair}, this one, {@link VerbsResource} (the
 * use count and the regions' open state and parent), {@link WorkRequest} and
 * {@link SendWorkRequest} (the facts each request computed when it was built) and the gateway's
 * {@code OpsTable}. What else it needs it reads as fields: the state ({@link QueuePairStateMachine}),
 * the opcode and state bit sets ({@link SendOperations}, {@code QueuePairTransitions}), a region's
 * {@code unusable} flag. The helpers that word a refusal run only when there is one.
 */
final class SendPath {
    /**
     * The queue pair this path posts to (held as the resource: the path needs its handle and
     * liveness only); null for a path made by {@link #limits} (checks only).
     */
    private final VerbsResource queuePair;
    /**
     * The queue pair's states, for the state check; null when there is none: a queue pair of an
     * rdma_cm identifier (librdmacm moves its states itself), or a path made by {@link #limits}.
     */
    private final QueuePairStateMachine states;
    final Limits limits;
    /** The opcodes {@link Limits#type()} allows, as {@link SendOperations} bits. */
    private final int allowedOpcodes;
    /** The provider's {@code post_send} (null: the provider has none, refused at post). */
    private final MemorySegment postSendFunction;
    /** Whether {@code post_send} goes through the critical downcall ({@link Context#criticalPosts()}). */
    private final boolean criticalPosts;
    /** {@link QueuePair#extendedSendLock()}: held around the post when not null. */
    private final Object extendedSendLock;

    /**
     * The queue pair's send limits as the provider granted them: what every request is checked
     * against, kept here once ({@link SendBatch} reads them from here too).
     */
    record Limits(QueuePairType type, int maxSendSge, int maxInlineData, int maxSendWorkRequests,
                  ProtectionDomain protectionDomain) {
        /** The limits of a queue pair of {@code type} in {@code pd}, as the provider {@code granted} them. */
        static Limits granted(QueuePairType type, QueuePairCapabilities granted, ProtectionDomain pd) {
            return new Limits(type, granted.maxSendSge(), granted.maxInlineData(), granted.maxSendWorkRequests(), pd);
        }
    }

    private SendPath(VerbsResource queuePair, QueuePairStateMachine states, Limits limits, MemorySegment postSendFunction,
                     boolean criticalPosts, Object extendedSendLock) {
        this.queuePair = queuePair;
        this.states = states;
        this.limits = limits;
        this.allowedOpcodes = SendOperations.allowedBits(limits.type());
        this.postSendFunction = postSendFunction;
        this.criticalPosts = criticalPosts;
        this.extendedSendLock = extendedSendLock;
    }

    /**
     * The send path of {@code queuePair} within {@code limits}.
     *
     * @param states the queue pair's state machine, or null to skip the state check (rdma_cm)
     * @param criticalPosts whether {@code post_send} goes through the critical downcall
     * @param extendedSendLock {@link QueuePair#extendedSendLock()}, held around the post when not null
     */
    static SendPath of(VerbsResource queuePair, QueuePairStateMachine states, Limits limits, MemorySegment postSendFunction,
                       boolean criticalPosts, Object extendedSendLock) {
        return new SendPath(queuePair, states, limits, postSendFunction, criticalPosts, extendedSendLock);
    }

    /** Limits without a queue pair: {@link #check} and {@link #checkOne} only (tests, validation). */
    static SendPath limits(QueuePairType type, int maxSendSge, int maxInlineData, int maxSendWorkRequests,
                           ProtectionDomain pd) {
        return new SendPath(null, null, new Limits(type, maxSendSge, maxInlineData, maxSendWorkRequests, pd), null, false, null);
    }

    /**
     * The downcall; on a queue pair with extended send operations under its
     * {@link QueuePair#extendedSendLock()}, so a batch's critical {@code ibv_wr_start} never
     * spins on the provider lock this {@code post_send} holds.
     */
    private int postNative(SendWorkRequest request) {
        if (extendedSendLock == null) {
            return OpsTable.postSend(postSendFunction, queuePair.handleSegment(),
                    request.nativeRequest(), request.badRequestSlot(), criticalPosts);
        }
        synchronized (extendedSendLock) {
            return OpsTable.postSend(postSendFunction, queuePair.handleSegment(),
                    request.nativeRequest(), request.badRequestSlot(), criticalPosts);
        }
    }

    /**
     * {@code ibv_post_send} of {@code request} and every request chained after it, for
     * {@link QueuePair#postSend}: the state check, the checks, the holds, one downcall, the
     * bookkeeping.
     */
    void post(SendWorkRequest request) {
        queuePair.acquire();
        boolean bookkeeping = false;
        int startedRequests = 0;
        try {
            requireSendState(SendWorkRequest.VERB);
            bookkeeping = check(request);
            if (bookkeeping) {
                startedRequests = ChainHolds.acquire(request);
            }
            request.clearBadRequest();
            if (postSendFunction == null) {
                throw NativeCalls.missingOp("ibv_post_send", "post_send");
            }
            // Segments: the downcall keeps the request's arena open until the provider returns.
            int rc = postNative(request);
            if (bookkeeping) {
                ChainHolds.afterPost(request, rc == 0, request.badRequestAddress(), limits.protectionDomain(), startedRequests);
            }
            if (rc != 0) {
                throw NativeCalls.postFailure(SendWorkRequest.VERB, rc, request.describeBadRequest());
            }
        } finally {
            if (startedRequests != 0) {
                ChainHolds.release(request, startedRequests);
            }
            queuePair.release();
        }
    }

    /**
     * Refuses a send while the queue pair is in RESET, INIT or RTR, as
     * {@link QueuePairTransitions#requirePostable} words it (a send needs RTS; SQD, SQE and ERROR
     * accept it); nothing to check for a queue pair of an rdma_cm identifier. For {@link #post}
     * and {@link SendBatch}.
     *
     * @throws IllegalStateException naming {@code verb}, the queue pair and its state
     */
    void requireSendState(String verb) {
        if (states != null) {
            QueuePairState state = states.state;
            if ((QueuePairTransitions.SEND_REFUSED_STATES >>> state.ordinal() & 1) != 0) {
                QueuePairTransitions.requirePostable(verb, true, queuePair, state);
            }
        }
    }

    /**
     * Checks {@code head} and every request chained after it: opcode vs transport, the
     * {@code wr} union vs opcode, entry count, inline size and opcode, atomic operand size, live
     * memory, memory regions (open, of {@code pd}; for INLINE readable by the CPU) and address
     * handle (open, of {@code pd}).
     *
     * @return true if some request holds resources that {@link ChainHolds#acquire} must hold open
     *         during the post (an address handle, a region an INLINE request copies from, or the
     *         window and region of a BIND_MW request), or needs {@link ChainHolds#afterPost}
     *         (BIND_MW, LOCAL_INV)
     * @throws IllegalArgumentException naming {@code ibv_post_send} and the request's wr_id
     * @throws IllegalStateException if a request's arena, memory region or address handle is closed
     */
    boolean check(SendWorkRequest head) {
        boolean holds = false;
        for (SendWorkRequest r = head; r != null; r = r.next()) {
            holds |= checkOne(SendWorkRequest.VERB, r);
        }
        return holds;
    }

    /** {@link #check} for one request, with messages naming {@code verb}. */
    boolean checkOne(String verb, SendWorkRequest r) {
        ProtectionDomain pd = limits.protectionDomain();
        QueuePairType type = limits.type();
        int maxSendSge = limits.maxSendSge();
        int maxInlineData = limits.maxInlineData();
        if (!r.isAlive()) {
            throw WorkRequestChecks.arenaClosed(verb, r.wrId());
        }
        int opcodeBit = r.opcodeBit();
        if ((opcodeBit & SendOperations.UNFILLED_OPCODES) != 0) {
            throw invalid(verb, r, opcodeName(r) + " is not posted through SendWorkRequest (it cannot fill what the provider"
                    + " reads for it)");
        }
        if ((allowedOpcodes & opcodeBit) == 0) {
            throw invalid(verb, r, opcodeName(r) + " is not a " + type + " operation");
        }
        // From here on opcodeBit is one bit: comparing it is comparing the opcode.
        int remote = r.remoteKind();
        if (opcodeBit == SendOperations.BIND_MW) {
            // rxe (and others) dereference bind_mw.mw and bind_info.mr: only a filled request goes out.
            if (remote != SendWrUnion.REMOTE_BIND) {
                throw invalid(verb, r, "BIND_MW needs bindMemoryWindow(window, newRkey, region, offset, length, access)"
                        + " (type 2 windows); bind type 1 windows with MemoryWindow.bind(...)");
            }
            checkBind(verb, r, pd);
            return true;
        }
        if ((opcodeBit & SendOperations.INVALIDATE_OPCODES) != 0 && !r.hasInvalidateRkey()) {
            throw invalid(verb, r, opcodeName(r) + " needs invalidateRkey(rkey)");
        }
        if (opcodeBit == SendOperations.LOCAL_INV) {
            return true; // afterPost frees the type 2 window it names
        }
        boolean datagram = type == QueuePairType.UD;
        if (datagram != (remote == SendWrUnion.REMOTE_UD)) {
            throw invalid(verb, r, datagram ? "a UD send needs ud(addressHandle, remoteQpn, remoteQkey)"
                    : "ud(...) is only for UD queue pairs, this one is " + type);
        }
        if (datagram) {
            AddressHandle ah = r.addressHandle();
            if (ah.isClosed()) {
                throw ah.closedException();
            }
            // wr.ud.ah->pd must be the queue pair's (another context's handle is another domain's too).
            ah.checkDomain(SendWorkRequest.VERB, r.wrId(), pd);
        }
        if ((opcodeBit & SendOperations.RDMA_OPCODES) != 0 && remote != SendWrUnion.REMOTE_RDMA) {
            throw invalid(verb, r, opcodeName(r) + " needs rdma(remoteAddress, rkey)");
        }
        if ((opcodeBit & SendOperations.ATOMIC_OPCODES) != 0) {
            if (remote != SendWrUnion.REMOTE_ATOMIC) {
                throw invalid(verb, r, "atomics need atomicCompareAndSwap(...) or atomicFetchAndAdd(...)");
            }
            if (r.sgeCount() != 1 || r.entryLength(0) != 8) {
                throw invalid(verb, r, "an atomic needs exactly one 8-byte local entry, got " + r.sgeCount()
                        + " entries of " + r.totalLength() + " bytes");
            }
        }
        int count = r.sgeCount();
        if (count > maxSendSge) {
            throw invalid(verb, r, count + " entries exceed the queue pair's max_send_sge " + maxSendSge);
        }
        boolean inline = (r.flagBits() & SendWorkRequest.INLINE) != 0;
        if (inline) {
            if ((opcodeBit & SendOperations.INLINE_OPCODES) == 0) {
                throw invalid(verb, r, "INLINE is only for SEND and RDMA WRITE, not " + opcodeName(r));
            }
            if (r.totalLength() > maxInlineData) {
                throw invalid(verb, r, r.totalLength() + " inline bytes exceed the queue pair's max_inline_data " + maxInlineData);
            }
        }
        boolean holds = datagram;
        for (int i = 0; i < count; i++) {
            MemoryRegion region = r.region(i);
            if (region != null) {
                // Open, usable and of pd, read from the region's fields (no call into its file);
                // WorkRequestChecks words the refusal.
                if (region.isClosed() || region.unusable || region.parent() != pd) {
                    WorkRequestChecks.checkRegion(verb, region, i, r.wrId(), pd);
                }
                if (inline) {
                    checkCpuReadable(verb, r, i, region, "INLINE");
                    holds = true;
                }
                continue;
            }
            MemorySegment data = r.inlineMemory(i);
            if (data != null) {
                if (!inline) {
                    throw invalid(verb, r, "entry " + i + " holds inline data but the INLINE flag is cleared");
                }
                // The CPU copies inline data during the post: freed memory would be read.
                if (!data.scope().isAlive()) {
                    throw new IllegalStateException(verb + ": the inline data arena of entry " + i
                            + " of wr_id=" + r.wrId() + " is closed");
                }
            }
        }
        return holds;
    }

    /** A BIND_MW request's window and region: open and of the queue pair's protection domain. */
    private static void checkBind(String verb, SendWorkRequest r, ProtectionDomain pd) {
        MemoryWindow window = r.union().bindWindow;
        MemoryRegion region = r.union().bindRegion;
        ProtectionDomain windowPd;
        ProtectionDomain regionPd;
        try {
            windowPd = window.protectionDomain();
        } catch (IllegalStateException closed) {
            throw new IllegalStateException(verb + ": wr_id=" + r.wrId() + ": BIND_MW names " + window
                    + ", which is closed", closed);
        }
        try {
            regionPd = region.protectionDomain();
        } catch (IllegalStateException closed) {
            throw new IllegalStateException(verb + ": wr_id=" + r.wrId() + ": BIND_MW names " + region
                    + ", which is closed", closed);
        }
        if (windowPd != pd || regionPd != pd) {
            throw invalid(verb, r, "BIND_MW names " + (windowPd != pd ? window + ", which belongs to " + windowPd
                    : region + ", which belongs to " + regionPd) + ", not to " + pd + " of the queue pair");
        }
        if (window.isValidType2()) {
            throw new IllegalStateException(SendWorkRequest.VERB + ": wr_id=" + r.wrId() + ": BIND_MW names " + window
                    + ", which an earlier BIND_MW bound: a type 2 window is bound again only once invalidated"
                    + " (post a LOCAL_INV of its rkey first)");
        }
    }

    /**
     * A region entry the provider's CPU copies from ({@code sge.addr} of an INLINE request, or
     * of what else {@code use} names): it must hold a CPU address (not a distinct iova) of memory
     * that is still mapped, and not a file mapping ({@link SendEntries#MAPPED_COPY}).
     */
    static void checkCpuReadable(String verb, SendWorkRequest r, int index, MemoryRegion region, String use) {
        String fix = use.equals("INLINE") ? "; post it without INLINE" : "";
        try {
            if (region.isDmabuf()) {
                throw invalid(verb, r, use + " entry " + index + " names the dma-buf " + region
                        + ", which has no memory the CPU could copy" + fix);
            }
            if (region.iova() != region.memoryAddress()) {
                throw invalid(verb, r, use + " entry " + index + " names " + region + ", registered at an iova other than"
                        + " its memory address: the CPU would copy from the iova" + (fix.isEmpty() ? ""
                        : fix + " or use inlineData(...)"));
            }
            if (region.memory().isMapped()) {
                throw invalid(verb, r, use + " entry " + index + " names " + region + ", whose memory is a file mapping: "
                        + SendEntries.MAPPED_COPY + fix);
            }
            if (!region.memory().scope().isAlive()) {
                throw new IllegalStateException(verb + ": wr_id=" + r.wrId() + ": the memory of "
                        + region + " (" + use + " entry " + index + ") is freed: its arena is closed");
            }
        } catch (IllegalStateException closed) {
            if (region.isClosed()) {
                throw new IllegalStateException(verb + ": wr_id=" + r.wrId() + ": entry " + index
                        + " names " + region + ", which is closed", closed);
            }
            throw closed;
        }
    }

    static String opcodeName(SendWorkRequest r) {
        WorkRequestOpcode opcode = WorkRequestOpcode.orNull(r.opcodeValue());
        return opcode != null ? opcode.name() : "opcode " + r.opcodeValue();
    }

    static IllegalArgumentException invalid(String verb, SendWorkRequest r, String why) {
        return new IllegalArgumentException(verb + ": wr_id=" + r.wrId() + ": " + why);
    }
}
