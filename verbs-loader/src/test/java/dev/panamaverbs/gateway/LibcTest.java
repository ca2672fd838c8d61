package dev.panamaverbs.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/** fcntl and poll on a real pipe: the wait primitives behind the completion channel and async fd. */
class LibcTest {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PIPE = LINKER.downcallHandle(LINKER.defaultLookup().find("pipe").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    private static final MethodHandle WRITE = LINKER.downcallHandle(LINKER.defaultLookup().find("write").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    @Test
    void pollSeesReadabilityAndFcntlSetsNonBlocking() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            assertEquals(0, (int) PIPE.invokeExact(fds));
            int readEnd = fds.getAtIndex(ValueLayout.JAVA_INT, 0);
            int writeEnd = fds.getAtIndex(ValueLayout.JAVA_INT, 1);
            try {
                assertEquals(0, Libc.statusFlags(readEnd) & Libc.O_NONBLOCK);
                assertEquals(0, Libc.setNonBlocking(readEnd));
                assertEquals(Libc.O_NONBLOCK, Libc.statusFlags(readEnd) & Libc.O_NONBLOCK);
                assertEquals(0, Libc.setNonBlocking(readEnd)); // idempotent

                MemorySegment pollState = Libc.allocatePollState(arena);
                assertEquals(0, Libc.pollReadable(pollState, readEnd, 0), "empty pipe");
                long start = System.nanoTime();
                assertEquals(0, Libc.pollReadable(pollState, readEnd, 20), "still empty after the timeout");
                assertTrue(System.nanoTime() - start >= 15_000_000L, "poll waited for its timeout");

                assertEquals(1L, (long) WRITE.invokeExact(writeEnd, arena.allocate(1), 1L));
                assertEquals(1, Libc.pollReadable(pollState, readEnd, 0), "one byte is readable");
            } finally {
                int ignored = (int) CLOSE.invokeExact(readEnd);
                ignored = (int) CLOSE.invokeExact(writeEnd);
            }
        }
    }

    @Test
    void aClosedFdAnswersEbadf() {
        assertEquals(9, Libc.setNonBlocking(1_000_000));
        assertEquals(-9, Libc.statusFlags(1_000_000));
    }

    @Test
    void pollOnAClosedFdReportsItAsReadable() throws Throwable {
        // poll sets POLLNVAL for a closed fd: "readable", so that the read that follows reports EBADF.
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(1, Libc.pollReadable(Libc.allocatePollState(arena), 1_000_000, 0));
        }
    }
}
