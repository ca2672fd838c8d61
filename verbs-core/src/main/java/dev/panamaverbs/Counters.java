package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.CounterDescription;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_counter_attach_attr;
import dev.panamaverbs.ffm.ibv_counters;
import dev.panamaverbs.ffm.ibv_counters_init_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A counters object (C {@code struct ibv_counters}): entries, each counting packets or bytes of
 * the flows that count into it ({@link FlowRule.Builder#count(Counters)}). Created by
 * {@link Context#createCounters()} ({@code ibv_create_counters}); entries are bound with
 * {@link #attach} before the flow is created, read with {@link #read}; {@link #close()} closes
 * the flows counting into it first, then {@code ibv_destroy_counters}. SoftRoCE has none
 * ({@link VerbsUnsupportedException}, EOPNOTSUPP).
 */
public final class Counters extends ResourceCreation.OnContext {
    /** {@code ibv_create_counters}: the factory hook behind {@link Context#createCounters()}. */
    static Counters create(VerbsResource context) {
        return ResourceCreation.onContext("ibv_create_counters", ibv_counters.SIZE, context, ibv_counters_init_attr.LAYOUT,
                IbverbsCalls::ibv_create_counters, Counters::new);
    }

    private Counters(VerbsResource context, MemorySegment handle) {
        super("Counters", handle, context, "ibv_destroy_counters", IbverbsCalls::ibv_destroy_counters);
    }

    /**
     * {@code ibv_attach_counters_point_flow} with no flow: entry {@code index} counts
     * {@code description} for the flows created afterwards with {@link FlowRule.Builder#count}.
     *
     * @param description what the entry counts
     * @param index       the entry, 0 or more
     * @throws IllegalArgumentException for a negative index
     * @throws VerbsException if the provider refuses
     * @throws IllegalStateException if closed
     */
    public void attach(CounterDescription description, int index) {
        String verb = "ibv_attach_counters_point_flow";
        Objects.requireNonNull(description, verb + ": description is null");
        if (index < 0) {
            throw new IllegalArgumentException(verb + ": index must be >= 0, got " + index);
        }
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_counter_attach_attr.LAYOUT);
            ibv_counter_attach_attr.counter_desc(attr, description.value());
            ibv_counter_attach_attr.index(attr, index);
            NativeCalls.checkReturnedErrno(verb, IbverbsCalls.ibv_attach_counters_point_flow(handleAddress(), attr.address(), 0));
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_read_counters}: the first {@code count} entries.
     *
     * @param count        how many entries, at least 1
     * @param preferCached {@code IBV_READ_COUNTERS_ATTR_PREFER_CACHED}: the provider may answer
     *                     from its cache instead of asking the device
     * @return the values, entry by entry (uint64_t each)
     * @throws IllegalArgumentException for a count below 1
     * @throws VerbsException if the provider refuses
     * @throws IllegalStateException if closed
     */
    public long[] read(int count, boolean preferCached) {
        if (count < 1) {
            throw new IllegalArgumentException("ibv_read_counters: ncounters must be >= 1, got " + count);
        }
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(ValueLayout.JAVA_LONG, count);
            NativeCalls.checkReturnedErrno("ibv_read_counters", IbverbsCalls.ibv_read_counters(handleAddress(), values.address(),
                    count, preferCached ? VerbsConstants.IBV_READ_COUNTERS_ATTR_PREFER_CACHED : 0));
            return values.toArray(ValueLayout.JAVA_LONG);
        } finally {
            release();
        }
    }
}
