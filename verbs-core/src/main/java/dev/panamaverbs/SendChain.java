package dev.panamaverbs;

import java.lang.foreign.MemorySegment;

/**
 * What {@link QueuePair#postSend(SendWorkRequest)} does to a chain of send requests besides the
 * downcall: checks every request against the queue pair, and holds the address handles of UD
 * requests open while the provider reads them. Allocation-free unless it throws.
 */
final class SendChain {
    private SendChain() {}

    /**
     * Checks {@code head} and every request chained after it: opcode vs transport, the
     * {@code wr} union vs opcode, entry count, inline size and opcode, atomic operand size, live
     * memory, memory regions (open, of {@code pd}; for INLINE readable by the CPU) and address handle.
     *
     * @return true if some request holds resources that {@link #acquire} must hold open during
     *         the post (an address handle, or a region an INLINE request copies from)
     * @throws IllegalArgumentException naming {@code ibv_post_send} and the request's wr_id
     * @throws IllegalStateException if a request's arena, memory region or address handle is closed
     */
    static boolean check(SendWorkRequest head, QpType type, int allowedOpcodes, int maxSendSge, int maxInlineData,
            ProtectionDomain pd) {
        boolean holds = false;
        for (SendWorkRequest r = head; r != null; r = r.next()) {
            holds |= checkOne(r, type, allowedOpcodes, maxSendSge, maxInlineData, pd);
        }
        return holds;
    }

    private static boolean checkOne(SendWorkRequest r, QpType type, int allowedOpcodes, int maxSendSge,
            int maxInlineData, ProtectionDomain pd) {
        WorkRequestChecks.requireAlive(SendWorkRequest.VERB, r.isAlive(), r.wrId());
        int opcodeBit = SendOperations.bit(r.opcodeValue());
        if ((opcodeBit & SendWorkRequest.UNFILLED_OPCODES) != 0) {
            throw invalid(r, opcodeName(r) + " is not posted through SendWorkRequest (it cannot fill what the provider"
                    + " reads for it); bind type 1 memory windows with MemoryWindow.bind(...)");
        }
        if ((allowedOpcodes & opcodeBit) == 0) {
            throw invalid(r, opcodeName(r) + " is not a " + type + " operation");
        }
        if ((opcodeBit & SendWorkRequest.INVALIDATE_OPCODES) != 0 && !r.hasInvalidateRkey()) {
            throw invalid(r, opcodeName(r) + " needs invalidateRkey(rkey)");
        }
        boolean datagram = type == QpType.UD;
        if (datagram != (r.remoteKind() == SendWorkRequest.REMOTE_UD)) {
            throw invalid(r, datagram ? "a UD send needs ud(addressHandle, remoteQpn, remoteQkey)"
                    : "ud(...) is only for UD queue pairs, this one is " + type);
        }
        if (datagram && r.addressHandle().isClosed()) {
            throw r.addressHandle().closedException();
        }
        if ((opcodeBit & SendWorkRequest.RDMA_OPCODES) != 0 && r.remoteKind() != SendWorkRequest.REMOTE_RDMA) {
            throw invalid(r, opcodeName(r) + " needs rdma(remoteAddress, rkey)");
        }
        if ((opcodeBit & SendWorkRequest.ATOMIC_OPCODES) != 0) {
            if (r.remoteKind() != SendWorkRequest.REMOTE_ATOMIC) {
                throw invalid(r, "atomics need atomicCompareAndSwap(...) or atomicFetchAndAdd(...)");
            }
            if (r.sgeCount() != 1 || r.entryLength(0) != 8) {
                throw invalid(r, "an atomic needs exactly one 8-byte local entry, got " + r.sgeCount()
                        + " entries of " + r.totalLength() + " bytes");
            }
        }
        if (r.sgeCount() > maxSendSge) {
            throw invalid(r, r.sgeCount() + " entries exceed the queue pair's max_send_sge " + maxSendSge);
        }
        boolean inline = (r.flagBits() & SendWorkRequest.INLINE) != 0;
        if (inline) {
            if ((opcodeBit & SendWorkRequest.INLINE_OPCODES) == 0) {
                throw invalid(r, "INLINE is only for SEND and RDMA WRITE, not " + opcodeName(r));
            }
            if (r.totalLength() > maxInlineData) {
                throw invalid(r, r.totalLength() + " inline bytes exceed the queue pair's max_inline_data " + maxInlineData);
            }
        }
        boolean holds = datagram;
        for (int i = 0; i < r.sgeCount(); i++) {
            MemoryRegion region = r.region(i);
            if (region != null) {
                WorkRequestChecks.checkRegion(SendWorkRequest.VERB, region, i, r.wrId(), pd);
                if (inline) {
                    checkInlineRegion(r, i, region);
                    holds = true;
                }
                continue;
            }
            MemorySegment data = r.inlineMemory(i);
            if (data != null) {
                if (!inline) {
                    throw invalid(r, "entry " + i + " holds inline data but the INLINE flag is cleared");
                }
                // The CPU copies inline data during the post: freed memory would be read.
                if (!data.scope().isAlive()) {
                    throw new IllegalStateException(SendWorkRequest.VERB + ": the inline data arena of entry " + i
                            + " of wr_id=" + r.wrId() + " is closed");
                }
            }
        }
        return holds;
    }

    /**
     * An INLINE request's region entry: the provider's CPU copies {@code sge.addr}, so the entry
     * must hold a CPU address (not a distinct iova) of memory that is still mapped.
     */
    private static void checkInlineRegion(SendWorkRequest r, int index, MemoryRegion region) {
        try {
            if (region.isDmabuf()) {
                throw invalid(r, "INLINE entry " + index + " names the dma-buf " + region
                        + ", which has no memory the CPU could copy; post it without INLINE");
            }
            if (region.iova() != region.memoryAddress()) {
                throw invalid(r, "INLINE entry " + index + " names " + region + ", registered at an iova other than"
                        + " its memory address: the CPU would copy from the iova; post it without INLINE or use"
                        + " inlineData(...)");
            }
            if (!region.memory().scope().isAlive()) {
                throw new IllegalStateException(SendWorkRequest.VERB + ": wr_id=" + r.wrId() + ": the memory of "
                        + region + " (INLINE entry " + index + ") is freed: its arena is closed");
            }
        } catch (IllegalStateException closed) {
            if (region.isClosed()) {
                throw new IllegalStateException(SendWorkRequest.VERB + ": wr_id=" + r.wrId() + ": entry " + index
                        + " names " + region + ", which is closed", closed);
            }
            throw closed;
        }
    }

    private static String opcodeName(SendWorkRequest r) {
        WorkRequestOpcode opcode = WorkRequestOpcode.orNull(r.opcodeValue());
        return opcode != null ? opcode.name() : "opcode " + r.opcodeValue();
    }

    private static IllegalArgumentException invalid(SendWorkRequest r, String why) {
        return new IllegalArgumentException(SendWorkRequest.VERB + ": wr_id=" + r.wrId() + ": " + why);
    }

    /**
     * Holds open, for the duration of a post, what the provider reads during it: the address
     * handles of UD requests and the memory regions INLINE requests copy from, so closing one
     * concurrently waits instead of freeing that memory. Same order as {@link #release}.
     *
     * @return how many were acquired: pass it to {@link #release}
     */
    static int acquire(SendWorkRequest head) {
        int acquired = 0;
        try {
            for (SendWorkRequest r = head; r != null; r = r.next()) {
                if (r.addressHandle() != null) {
                    r.addressHandle().acquire();
                    acquired++;
                }
                if ((r.flagBits() & SendWorkRequest.INLINE) != 0) {
                    for (int i = 0; i < r.sgeCount(); i++) {
                        if (r.region(i) != null) {
                            r.region(i).acquire();
                            acquired++;
                        }
                    }
                }
            }
        } catch (IllegalStateException closed) {
            release(head, acquired);
            throw closed;
        }
        return acquired;
    }

    /** Releases the first {@code count} resources {@link #acquire} held. */
    static void release(SendWorkRequest head, int count) {
        for (SendWorkRequest r = head; r != null && count > 0; r = r.next()) {
            if (r.addressHandle() != null) {
                r.addressHandle().release();
                count--;
            }
            if ((r.flagBits() & SendWorkRequest.INLINE) != 0) {
                for (int i = 0; i < r.sgeCount() && count > 0; i++) {
                    if (r.region(i) != null) {
                        r.region(i).release();
                        count--;
                    }
                }
            }
        }
    }
}
