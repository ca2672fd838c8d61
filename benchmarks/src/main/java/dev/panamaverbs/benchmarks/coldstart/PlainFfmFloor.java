package dev.panamaverbs.benchmarks.coldstart;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The floor a cold capability probe is compared with: the least a plain FFM program does to ask
 * libibverbs for its devices. It opens {@code libibverbs.so.1}, builds one downcall handle and
 * calls {@code ibv_get_device_list} (the list is not freed: the process ends). Prints the
 * milliseconds from {@code main} to the answer, as {@link VerbsProbe} does.
 */
public final class PlainFfmFloor {
    private PlainFfmFloor() {}

    /**
     * Runs the floor once.
     *
     * @param args none
     * @throws Throwable whatever the downcall throws
     */
    @SuppressWarnings("restricted") // a stand-alone measurement program, run with native access granted
    public static void main(String[] args) throws Throwable {
        long start = System.nanoTime();
        SymbolLookup libibverbs = SymbolLookup.libraryLookup("libibverbs.so.1", Arena.global());
        MethodHandle getDeviceList = Linker.nativeLinker().downcallHandle(
                libibverbs.find("ibv_get_device_list").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment list = (MemorySegment) getDeviceList.invokeExact(count);
            // NULL with no RDMA subsystem at all (errno ENOSYS), else a list of count devices
            ColdStart.report(start, list.equals(MemorySegment.NULL) ? "list=NULL" : "devices=" + count.get(JAVA_INT, 0));
        }
    }
}
