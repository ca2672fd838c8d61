package dev.panamaverbs.onesided;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

/**
 * The channel's preallocated send requests and the memory they point to: the atomic sink and a
 * ring of 8-byte scratch words for signal sets. Each {@code fill} sets what differs per post and
 * returns the request to post; {@link #last} is the signaled request of that chain.
 */
final class ChannelRequests {
    final MemoryRegion sink;
    private final MemoryRegion scratch;
    private final int scratchMask;
    private final SendWorkRequest write;
    private final SendWorkRequest writeThenFencedAdd;
    private final SendWorkRequest writeThenAdd;
    private final SendWorkRequest fencedAdd;
    private final SendWorkRequest add;
    private final SendWorkRequest fencedSet;
    private final SendWorkRequest set;
    /** The signaled request of the chain the last fill returned. */
    SendWorkRequest last;

    ChannelRequests(ProtectionDomain pd, Arena arena, int ringSize, boolean inlineSets) {
        sink = AtomicSink.register(pd, arena);
        try {
            scratch = pd.register(arena.allocate((long) Slots.SLOT_BYTES * ringSize, Slots.SLOT_BYTES),
                    EnumSet.of(AccessFlag.LOCAL_WRITE));
        } catch (RuntimeException e) {
            sink.close();
            throw e;
        }
        scratchMask = ringSize - 1;
        write = request(arena, WorkRequestOpcode.RDMA_WRITE, EnumSet.of(SendFlag.SIGNALED));
        fencedAdd = request(arena, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, EnumSet.of(SendFlag.SIGNALED, SendFlag.FENCE))
                .sge(sink, 0, Slots.SLOT_BYTES);
        add = request(arena, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, EnumSet.of(SendFlag.SIGNALED))
                .sge(sink, 0, Slots.SLOT_BYTES);
        writeThenFencedAdd = request(arena, WorkRequestOpcode.RDMA_WRITE, EnumSet.noneOf(SendFlag.class)).next(fencedAdd);
        writeThenAdd = request(arena, WorkRequestOpcode.RDMA_WRITE, EnumSet.noneOf(SendFlag.class)).next(add);
        EnumSet<SendFlag> setFlags = EnumSet.of(SendFlag.SIGNALED);
        if (inlineSets) {
            setFlags.add(SendFlag.INLINE);
        }
        set = request(arena, WorkRequestOpcode.RDMA_WRITE, setFlags);
        setFlags.add(SendFlag.FENCE);
        fencedSet = request(arena, WorkRequestOpcode.RDMA_WRITE, setFlags);
    }

    private static SendWorkRequest request(Arena arena, WorkRequestOpcode opcode, EnumSet<SendFlag> flags) {
        return SendWorkRequest.allocate(arena, 1).opcode(opcode).flags(flags);
    }

    SendWorkRequest put(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length) {
        Slots.checkRange(src, srcOffset, length, src.memory().byteSize());
        write.sge(src.region(), srcOffset, length).rdma(dst.addressAt(dstOffset, length), dst.descriptor().rkey());
        last = write;
        return write;
    }

    SendWorkRequest add(RemoteSlot slot, long delta, boolean fence) {
        last = (fence ? fencedAdd : add).atomicFetchAndAdd(slot.address(), slot.rkey(), delta);
        return last;
    }

    /** An 8-byte write of {@code value}, staged in scratch word {@code ticket} (the CPU copies it when inline). */
    SendWorkRequest set(RemoteSlot slot, long value, boolean fence, long ticket) {
        long at = (ticket & scratchMask) * Slots.SLOT_BYTES;
        scratch.memory().set(ValueLayout.JAVA_LONG, at, value);
        last = (fence ? fencedSet : set).sge(scratch, at, Slots.SLOT_BYTES).rdma(slot.address(), slot.rkey());
        return last;
    }

    SendWorkRequest putThenAdd(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length,
            RemoteSlot slot, long delta, boolean fence) {
        SendWorkRequest head = fence ? writeThenFencedAdd : writeThenAdd;
        Slots.checkRange(src, srcOffset, length, src.memory().byteSize());
        head.sge(src.region(), srcOffset, length).rdma(dst.addressAt(dstOffset, length), dst.descriptor().rkey());
        add(slot, delta, fence);
        return head;
    }

    void close() {
        scratch.close();
        sink.close();
    }
}
