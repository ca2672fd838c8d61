package dev.panamaverbs.messaging;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.AccessFlag;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * Receive buffers carved from one registered region: buffer {@code slot} at
 * {@code slot x bufferSize}, one preallocated receive work request each ({@code wr_id} = slot),
 * and the read-only view of each for the messages that land in it. A channel's own buffers
 * (posted to its queue pair) and a {@link SharedReceivePool}'s (posted to its SRQ) are made here.
 */
final class ReceiveBuffers {
    final MemoryRegion region;
    final ReceiveWorkRequest[] receives;
    final ReceiveSlots slots;
    private final int bufferSize;

    private ReceiveBuffers(MemoryRegion region, int count, int bufferSize) {
        this.region = region;
        this.bufferSize = bufferSize;
        receives = new ReceiveWorkRequest[count];
        MemorySegment[] views = new MemorySegment[count];
        for (int slot = 0; slot < count; slot++) {
            receives[slot] = ReceiveWorkRequest.allocate(1).wrId(slot).sge(0, region, offset(slot), bufferSize);
            views[slot] = region.memory().asSlice(offset(slot), bufferSize).asReadOnly();
        }
        slots = new ReceiveSlots(views);
    }

    /**
     * Registers {@code count} buffers of {@code bufferSize} bytes in {@code pd} (local write), none posted yet.
     *
     * @throws dev.panamaverbs.messaging.registration.RegistrationLimitException when the memory lock limit refuses them
     */
    static ReceiveBuffers register(ProtectionDomain pd, int count, int bufferSize) {
        return new ReceiveBuffers(ChannelResources.registerPool(pd, (long) count * bufferSize,
                EnumSet.of(AccessFlag.LOCAL_WRITE)), count, bufferSize);
    }

    /** {@return where buffer {@code slot} starts in {@link #region}} */
    long offset(int slot) {
        return (long) slot * bufferSize;
    }
}
