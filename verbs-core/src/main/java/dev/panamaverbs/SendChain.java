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
     * memory and address handle.
     *
     * @throws IllegalArgumentException naming {@code ibv_post_send} and the request's wr_id
     * @throws IllegalStateException if a request's arena or address handle is closed
     */
    static void check(SendWorkRequest head, QpType type, int allowedOpcodes, int maxSendSge, int maxInlineData) {
        for (SendWorkRequest r = head; r != null; r = r.next()) {
            checkOne(r, type, allowedOpcodes, maxSendSge, maxInlineData);
        }
    }

    private static void checkOne(SendWorkRequest r, QpType type, int allowedOpcodes, int maxSendSge, int maxInlineData) {
        if (!r.isAlive()) {
            throw new IllegalStateException(SendWorkRequest.VERB + ": the arena of the request with wr_id="
                    + r.wrId() + " is closed");
        }
        int opcodeBit = SendOperations.bit(r.opcodeValue());
        if ((allowedOpcodes & opcodeBit) == 0) {
            throw invalid(r, opcodeName(r) + " is not a " + type + " operation");
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
        for (int i = 0; i < r.sgeCount(); i++) {
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
    }

    private static String opcodeName(SendWorkRequest r) {
        WorkRequestOpcode opcode = WorkRequestOpcode.orNull(r.opcodeValue());
        return opcode != null ? opcode.name() : "opcode " + r.opcodeValue();
    }

    private static IllegalArgumentException invalid(SendWorkRequest r, String why) {
        return new IllegalArgumentException(SendWorkRequest.VERB + ": wr_id=" + r.wrId() + ": " + why);
    }

    /**
     * Holds open the address handles of the chain's UD requests for the duration of a post, so
     * closing one concurrently waits instead of freeing what the provider reads.
     *
     * @return how many were acquired: pass it to {@link #releaseAddressHandles}
     */
    static int acquireAddressHandles(SendWorkRequest head) {
        int acquired = 0;
        try {
            for (SendWorkRequest r = head; r != null; r = r.next()) {
                if (r.addressHandle() != null) {
                    r.addressHandle().acquire();
                    acquired++;
                }
            }
        } catch (IllegalStateException closed) {
            releaseAddressHandles(head, acquired);
            throw closed;
        }
        return acquired;
    }

    /** Releases the first {@code count} address handles {@link #acquireAddressHandles} held. */
    static void releaseAddressHandles(SendWorkRequest head, int count) {
        for (SendWorkRequest r = head; r != null && count > 0; r = r.next()) {
            if (r.addressHandle() != null) {
                r.addressHandle().release();
                count--;
            }
        }
    }
}
