package dev.panamaverbs.gateway;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

/**
 * Sizes the pointers a C function returned or a provider struct holds, so that the API reads
 * them with bounds: FFM hands them out as zero-length segments, and giving them a size is a
 * restricted operation, done here under this module's native access and nowhere in the API.
 *
 * <p>Every method trusts that the pointer really points at what the caller says (as C does):
 * only pass pointers that libibverbs itself returned or stored. NULL is refused.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
public final class Pointers {
    private Pointers() {}

    /**
     * {@code pointer} as a segment of {@code size} bytes, e.g. {@code sized(qp, ibv_qp.SIZE)}.
     *
     * @param pointer the native pointer
     * @param size the size in bytes
     * @return {@code pointer} as a segment of {@code size} bytes, e.g
     */
    public static MemorySegment sized(MemorySegment pointer, long size) {
        requireNonNull(pointer.address());
        return pointer.reinterpret(size);
    }

    /**
     * The object at {@code address} as a segment of {@code size} bytes.
     *
     * @param address the address
     * @param size the size in bytes
     * @return the object at {@code address} as a segment of {@code size} bytes
     */
    public static MemorySegment sized(long address, long size) {
        requireNonNull(address);
        return MemorySegment.ofAddress(address).reinterpret(size);
    }

    /**
     * {@code pointer} as an array of {@code count} elements of {@code element}.
     *
     * @param pointer the native pointer
     * @param count how many
     * @param element the element
     * @return {@code pointer} as an array of {@code count} elements of {@code element}
     */
    public static MemorySegment array(MemorySegment pointer, long count, MemoryLayout element) {
        requireNonNull(pointer.address());
        return pointer.reinterpret(Math.multiplyExact(count, element.byteSize()));
    }

    /**
     * {@code segment} seen through {@code arena}'s lifetime: the view stops working (throws) when
     * the arena closes, whatever the memory behind it does. Nothing is freed when it closes.
     *
     * @param segment the segment
     * @param arena the arena that owns the allocated memory
     * @return {@code segment} seen through {@code arena}'s lifetime: the view stops working (throws) when the arena closes, whatever the memory behind it does
     */
    public static MemorySegment scoped(MemorySegment segment, Arena arena) {
        return segment.reinterpret(arena, null);
    }

    /**
     * The NUL-terminated string at {@code pointer} (UTF-8), e.g. what {@code ibv_wc_status_str}
     * returns: a pointer into libibverbs' constant strings.
     *
     * @param pointer the native pointer to a C string
     * @return the string
     */
    public static String cString(MemorySegment pointer) {
        requireNonNull(pointer.address());
        return pointer.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    private static void requireNonNull(long address) {
        if (address == 0) {
            throw new IllegalArgumentException("a NULL pointer cannot be sized");
        }
    }
}
