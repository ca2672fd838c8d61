package dev.panamaverbs.ffm.invoke;

import dev.panamaverbs.ffm.ExportedFunction;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NativeLibrary's binding rules, and Downcalls' handles calling real libc functions through it. */
class NativeLibraryTest {
    private static final ExportedFunction GETPID = new ExportedFunction("getpid", "GLIBC_2.2.5", true);
    private static final ExportedFunction CLOSE = new ExportedFunction("close", "GLIBC_2.2.5", true);
    private static final ExportedFunction STRLEN = new ExportedFunction("strlen", "GLIBC_2.2.5", false);
    private static final ExportedFunction MISSING = new ExportedFunction("no_such_function", "FAKE_9.9", false);
    private static final FunctionDescriptor GETPID_DESC = FunctionDescriptor.of(ValueLayout.JAVA_INT);
    private static final FunctionDescriptor CLOSE_DESC = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
    private static final FunctionDescriptor STRLEN_DESC = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);

    private static NativeLibrary libc() {
        return new NativeLibrary("libc.so.6", List.of(GETPID, CLOSE, STRLEN, MISSING));
    }

    private static Map<String, MemorySegment> resolved() {
        return Map.of("getpid", Downcalls.libc("getpid"), "close", Downcalls.libc("close"),
                "strlen", Downcalls.libc("strlen"));
    }

    @Test
    void unboundRefusesEveryAddress() {
        NativeLibrary lib = libc();
        assertFalse(lib.isBound());
        assertFalse(lib.has("getpid"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> lib.address(0));
        assertTrue(e.getMessage().startsWith("libc.so.6 is not loaded"), e.getMessage());
    }

    @Test
    void aMissingOptionalFunctionIsUnsupported() {
        NativeLibrary lib = libc();
        lib.bind(resolved());
        assertTrue(lib.isBound());
        assertTrue(lib.has("strlen"));
        assertFalse(lib.has("no_such_function"));
        assertFalse(lib.has("not_in_the_list"));
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> lib.address(3));
        assertEquals("no_such_function@FAKE_9.9 is not exported by libc.so.6", e.getMessage());
    }

    @Test
    void aMissingRequiredFunctionIsRefusedAndNothingIsBound() {
        NativeLibrary lib = libc();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> lib.bind(Map.of("strlen", Downcalls.libc("strlen"), "getpid", MemorySegment.NULL)));
        assertTrue(e.getMessage().contains("getpid@GLIBC_2.2.5"), e.getMessage());
        assertFalse(lib.isBound());
    }

    @Test
    void bindingTwiceIsRefused() {
        NativeLibrary lib = libc();
        lib.bind(resolved());
        assertThrows(IllegalStateException.class, () -> lib.bind(resolved()));
        assertEquals(Downcalls.libc("getpid").address(), lib.address(0).address());
    }

    @Test
    void callsThroughTheBoundAddressesCaptureErrno() throws Throwable {
        NativeLibrary lib = libc();
        lib.bind(resolved());
        MethodHandle getpid = Downcalls.handle(GETPID_DESC, Downcalls.CAPTURE_ERRNO);
        MethodHandle close = Downcalls.handle(CLOSE_DESC, Downcalls.CAPTURE_ERRNO);
        MethodHandle strlen = Downcalls.handle(Downcalls.rawAddresses(STRLEN_DESC), Downcalls.CRITICAL);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = CallState.allocate(arena);
            assertEquals(ProcessHandle.current().pid(), (long) (int) getpid.invokeExact(lib.address(0), errno));
            assertEquals(-1, (int) close.invokeExact(lib.address(1), errno, -1));
            assertEquals(9, CallState.errno(errno)); // EBADF
            MemorySegment text = arena.allocateFrom("verbs");
            assertEquals(5L, (long) strlen.invokeExact(lib.address(2), text.address()));
        }
        assertEquals(FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Downcalls.rawAddresses(STRLEN_DESC));
    }

    @Test
    void rethrowKeepsUncheckedThrowablesAndWrapsTheRest() {
        IllegalArgumentException unchecked = new IllegalArgumentException("x");
        assertSame(unchecked, Downcalls.rethrow("f", unchecked));
        StackOverflowError error = new StackOverflowError();
        assertSame(error, assertThrows(StackOverflowError.class, () -> Downcalls.rethrow("f", error)));
        Exception checked = new Exception("checked");
        RuntimeException wrapped = Downcalls.rethrow("ibv_open_device", checked);
        assertEquals("calling ibv_open_device failed", wrapped.getMessage());
        assertSame(checked, wrapped.getCause());
        assertThrows(IllegalStateException.class, () -> Downcalls.libc("no_such_libc_function"));
    }
}
