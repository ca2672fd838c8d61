package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** errno is captured right after the call, readable through CallState and Errno alike. */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
class CallStateTest {

    @Test
    void errnoOfAFailedLibcCallIsCaptured() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT), CallState.CAPTURE_ERRNO);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = (int) close.invokeExact(state, -1);
            assertEquals(-1, rc);
            assertEquals(Errno.EBADF, CallState.errno(state));

            MemorySegment other = Errno.capture(arena);
            int again = (int) close.invokeExact(other, -1);
            assertEquals(-1, again);
            assertEquals(Errno.EBADF, Errno.read(other));
        }
    }
}
