package dev.panamaverbs.internal;

import java.util.Arrays;

/**
 * Values by native address, looked up without allocating or locking: a {@code Map<Long, V>}
 * boxes the address on every lookup. Copy-on-write sorted arrays, for tables that are read on an
 * event path and changed only when a resource is created or destroyed (a completion channel's
 * CQs, which {@code ibv_get_cq_event} names by {@code struct ibv_cq *}).
 *
 * @param <V> the values
 */
public final class AddressTable<V> {
    /** One immutable state: {@code addresses} sorted, {@code values[i]} at {@code addresses[i]}. */
    private record Table(long[] addresses, Object[] values) {}

    private volatile Table table = new Table(new long[0], new Object[0]);

    /**
     * The value at {@code address}.
     *
     * @param address the native address
     * @return the value filed there, or null
     */
    @SuppressWarnings("unchecked")
    public V get(long address) {
        Table current = table;
        int i = Arrays.binarySearch(current.addresses, address);
        return i >= 0 ? (V) current.values[i] : null;
    }

    /**
     * Files {@code value} at {@code address}, replacing what was there.
     *
     * @param address the native address
     * @param value the value
     */
    public synchronized void put(long address, V value) {
        Table current = table;
        int i = Arrays.binarySearch(current.addresses, address);
        if (i >= 0) {
            Object[] values = current.values.clone();
            values[i] = value;
            table = new Table(current.addresses, values);
            return;
        }
        int at = -i - 1;
        int n = current.addresses.length;
        long[] addresses = new long[n + 1];
        Object[] values = new Object[n + 1];
        System.arraycopy(current.addresses, 0, addresses, 0, at);
        System.arraycopy(current.values, 0, values, 0, at);
        addresses[at] = address;
        values[at] = value;
        System.arraycopy(current.addresses, at, addresses, at + 1, n - at);
        System.arraycopy(current.values, at, values, at + 1, n - at);
        table = new Table(addresses, values);
    }

    /**
     * Removes the entry at {@code address} if it is {@code value} (another may have replaced it).
     *
     * @param address the native address
     * @param value the value expected there
     */
    public synchronized void remove(long address, V value) {
        Table current = table;
        int i = Arrays.binarySearch(current.addresses, address);
        if (i < 0 || current.values[i] != value) {
            return;
        }
        int n = current.addresses.length;
        long[] addresses = new long[n - 1];
        Object[] values = new Object[n - 1];
        System.arraycopy(current.addresses, 0, addresses, 0, i);
        System.arraycopy(current.values, 0, values, 0, i);
        System.arraycopy(current.addresses, i + 1, addresses, i, n - 1 - i);
        System.arraycopy(current.values, i + 1, values, i, n - 1 - i);
        table = new Table(addresses, values);
    }

    /**
     * How many entries the table holds.
     *
     * @return the number of entries
     */
    public int size() {
        return table.addresses.length;
    }
}
