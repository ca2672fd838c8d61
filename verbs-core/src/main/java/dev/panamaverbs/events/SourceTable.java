package dev.panamaverbs.events;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongFunction;

/**
 * A poller's registered sources by token, looked up on every report without allocating (a
 * {@code Map<Long, ...>} boxes the token). A token is {@code serial << 32 | slot}: the slot
 * indexes the table, the serial (never 0, so no source gets the wake-up eventfd's token 0) tells a
 * report of a closed source from the new source that took its slot since.
 */
final class SourceTable {
    private volatile AtomicReferenceArray<PollSource> slots = new AtomicReferenceArray<>(16);
    private int size;
    private long serial;

    /** Makes a source with the token of a free slot ({@code make} gets the token) and files it there. */
    synchronized PollSource add(LongFunction<PollSource> make) {
        AtomicReferenceArray<PollSource> current = slots;
        int slot = 0;
        while (slot < current.length() && current.get(slot) != null) {
            slot++;
        }
        if (slot == current.length()) {
            AtomicReferenceArray<PollSource> grown = new AtomicReferenceArray<>(current.length() * 2);
            for (int i = 0; i < current.length(); i++) {
                grown.set(i, current.get(i));
            }
            slots = grown;
            current = grown;
        }
        PollSource source = make.apply(++serial << 32 | slot);
        current.set(slot, source);
        size++;
        return source;
    }

    /** The source registered under {@code token}, or null (closed, or never). */
    PollSource get(long token) {
        AtomicReferenceArray<PollSource> current = slots;
        int slot = slotOf(token);
        if (slot >= current.length()) {
            return null;
        }
        PollSource source = current.get(slot);
        return source != null && source.token() == token ? source : null;
    }

    synchronized void remove(PollSource source) {
        AtomicReferenceArray<PollSource> current = slots;
        int slot = slotOf(source.token());
        if (slot < current.length() && current.get(slot) == source) {
            current.set(slot, null);
            size--;
        }
    }

    synchronized int size() {
        return size;
    }

    synchronized List<PollSource> snapshot() {
        List<PollSource> all = new ArrayList<>(size);
        AtomicReferenceArray<PollSource> current = slots;
        for (int i = 0; i < current.length(); i++) {
            PollSource source = current.get(i);
            if (source != null) {
                all.add(source);
            }
        }
        return all;
    }

    synchronized void clear() {
        slots = new AtomicReferenceArray<>(16);
        size = 0;
    }

    private static int slotOf(long token) {
        return (int) token;
    }
}
