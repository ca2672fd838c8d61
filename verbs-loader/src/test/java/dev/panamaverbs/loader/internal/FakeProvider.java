package dev.panamaverbs.loader.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fake provider objects of fake_provider.c, opened directly (not through the probe), and
 * what its recorders saw: the last operation's name, its arguments, the call count.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
public final class FakeProvider {
    private final SymbolLookup lookup;
    private final MemorySegment lastOp;
    private final MemorySegment args;
    private final MemorySegment calls;
    private final MemorySegment nextReturn;
    private final MemorySegment log;
    private final MemorySegment logCount;
    private final long callSize;

    public FakeProvider(Path library) {
        lookup = SymbolLookup.libraryLookup(library, Arena.global());
        lastOp = data("fake_last_op", 64);
        args = data("fake_args", 64);
        calls = data("fake_calls", 8);
        nextReturn = data("fake_next_return", 8);
        callSize = call("fake_call_size", FunctionDescriptor.of(JAVA_LONG));
        log = data("fake_log", callSize * call("fake_log_capacity", FunctionDescriptor.of(JAVA_LONG)));
        logCount = data("fake_log_count", 8);
    }

    /**
     * One recorded call: the operation, its arguments (as the recorder widened them to int64_t),
     * and for an {@code ibv_wr_*} operation the {@code ibv_qp_ex.wr_id}/{@code wr_flags} it saw.
     *
     * @param op the recorder's name
     * @param args its arguments
     * @param wrId ibv_qp_ex.wr_id when an operation started, else 0
     * @param wrFlags ibv_qp_ex.wr_flags likewise
     */
    public record Call(String op, long[] args, long wrId, long wrFlags) {
        public long arg(int index) {
            return args[index];
        }

        @Override
        public String toString() {
            return op + java.util.Arrays.toString(args);
        }
    }

    /** Every call recorded since the last {@link #reset()}, in order (up to the fake's log capacity). */
    public java.util.List<Call> log() {
        java.util.List<Call> calls = new java.util.ArrayList<>();
        long count = Math.min(logCount.get(JAVA_LONG, 0), log.byteSize() / callSize);
        for (long i = 0; i < count; i++) {
            MemorySegment entry = log.asSlice(i * callSize, callSize);
            long[] arguments = entry.asSlice(32, 64).toArray(JAVA_LONG);
            calls.add(new Call(entry.getString(0), arguments, entry.get(JAVA_LONG, 96), entry.get(JAVA_LONG, 104)));
        }
        return calls;
    }

    /** The operation names of {@link #log()}. */
    public java.util.List<String> ops() {
        return log().stream().map(Call::op).toList();
    }

    /** The fake library with everything exported, shared by the tests of one JVM. */
    public static FakeProvider standard() {
        return new FakeProvider(standardLibrary());
    }

    /**
     * Makes the standard fake the process-wide library (call before the first use of
     * {@link LibIbverbs}, in a test class with its own JVM), checks it loaded, and opens it.
     */
    public static FakeProvider standardAsProcessLibrary() {
        System.setProperty(LibraryProbe.LIBRARY_PROPERTY, standardLibrary().toString());
        assertTrue(LibIbverbs.LIBRARY.isAvailable(), () -> LibIbverbs.LIBRARY.unavailabilityCause().orElse(""));
        return standard();
    }

    public static Path standardLibrary() {
        return FakeLibrary.named("fakeverbs-standard").build();
    }

    private MemorySegment data(String name, long size) {
        return lookup.find(name).orElseThrow().reinterpret(size);
    }

    private long call(String name, FunctionDescriptor descriptor, Object... arguments) {
        MethodHandle handle = Linker.nativeLinker().downcallHandle(lookup.find(name).orElseThrow(), descriptor);
        try {
            return (long) handle.invokeWithArguments(arguments);
        } catch (Throwable t) {
            throw new IllegalStateException(name, t);
        }
    }

    /** A provider context; {@code sz} is the size its verbs_context claims. */
    public long context(boolean extended, long sz, boolean withOps) {
        return call("fake_context", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT),
                extended ? 1 : 0, sz, withOps ? 1 : 0);
    }

    /** A full extended context with every op. */
    public long context() {
        return context(true, verbsContextSize(), true);
    }

    public long verbsContextSize() {
        return call("fake_verbs_context_size", FunctionDescriptor.of(JAVA_LONG));
    }

    /** A context whose verbs_context ends just before the op at {@code opOffset}: verbs_get_ctx_op finds no op there. */
    public long contextWithout(long opOffset) {
        return context(true, verbsContextSize() - opOffset - 1, true);
    }

    /** offsetof(struct verbs_context, op) as gcc computed it. */
    public long offsetInVerbsContext(String op) {
        return call("fake_offset_" + op, FunctionDescriptor.of(JAVA_LONG));
    }

    public long qp(long context) {
        return call("fake_qp", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), context);
    }

    public long cq(long context) {
        return call("fake_cq", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), context);
    }

    public long srq(long context) {
        return call("fake_srq", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), context);
    }

    public long pd(long context) {
        return call("fake_pd", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), context);
    }

    /** A zeroed {@code struct ibv_mr} whose only field set is its context. */
    public long mr(long context) {
        return call("fake_region", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), context);
    }

    public long qpEx(long context, boolean withOps) {
        return call("fake_qp_ex", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT), context, withOps ? 1 : 0);
    }

    public long cqEx(long context, boolean withOps) {
        return call("fake_cq_ex", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT), context, withOps ? 1 : 0);
    }

    /** What the next recorded call returns (or, for pointer-returning ones, the errno it fails with). */
    public void nextReturn(long value) {
        nextReturn.set(JAVA_LONG, 0, value);
    }

    /** Clears the record: no operation, zero arguments, next return 0. */
    public void reset() {
        lastOp.fill((byte) 0);
        args.fill((byte) 0);
        log.fill((byte) 0);
        logCount.set(JAVA_LONG, 0, 0L);
        nextReturn(0);
    }

    public String lastOp() {
        return lastOp.getString(0);
    }

    public long arg(int index) {
        return args.getAtIndex(JAVA_LONG, index);
    }

    public long calls() {
        return calls.get(JAVA_LONG, 0);
    }

    /** fake_flow_specs[spec][field]: what the fake's create_flow read of spec {@code spec} (type, size, 16 bytes after the header). */
    public long flowSpec(int spec, int field) {
        return data("fake_flow_specs", 8 * 4 * 8).getAtIndex(JAVA_LONG, spec * 4L + field);
    }

    /** fake_layout(which): a sizeof or offsetof of an attribute struct as gcc computed it (see fake_provider.c). */
    public long layout(int which) {
        return call("fake_layout", FunctionDescriptor.of(JAVA_LONG, JAVA_INT), which);
    }
}
