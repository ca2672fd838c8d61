package dev.panamaverbs.generator;

import java.util.Map;
import java.util.TreeMap;

/**
 * The runtime of the invokers (dev.panamaverbs.ffm.invoke), written verbatim: the one handle
 * factory and Throwable helper (Downcalls), the errno capture segment (CallState), and the
 * table of one library's resolved addresses (NativeLibrary).
 */
final class RuntimeEmitter {
    private RuntimeEmitter() {}

    /** Path under the source root to source, for the three classes. */
    static Map<String, String> files() {
        String dir = Target.INVOKE_PACKAGE.replace('.', '/') + "/";
        String head = Main.BANNER + "package " + Target.INVOKE_PACKAGE + ";\n\n";
        Map<String, String> files = new TreeMap<>();
        files.put(dir + "Downcalls.java", head + DOWNCALLS);
        files.put(dir + "CallState.java", head + CALL_STATE);
        files.put(dir + "NativeLibrary.java", head + NATIVE_LIBRARY);
        return files;
    }

    private static final String DOWNCALLS = """
            import java.lang.foreign.AddressLayout;
            import java.lang.foreign.FunctionDescriptor;
            import java.lang.foreign.Linker;
            import java.lang.foreign.MemoryLayout;
            import java.lang.foreign.MemorySegment;
            import java.lang.foreign.ValueLayout;
            import java.lang.invoke.MethodHandle;
            import java.util.ArrayList;
            import java.util.List;

            /**
             * The one place downcall handles are made, and the one helper that turns what a handle
             * throws into the project's exceptions. Every handle is unbound: its first argument is
             * the target function's address, so one handle serves every provider's function of a type.
             */
            public final class Downcalls {
                private Downcalls() {}

                private static final Linker LINKER = Linker.nativeLinker();

                /** errno is saved right after the call, before the JVM can clobber it. */
                public static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
                /** No thread-state transition: only for short, non-blocking, lock-free calls (the poll loop). */
                public static final Linker.Option CRITICAL = Linker.Option.critical(false);

                /**
                 * Unbound handle: the target function (a MemorySegment) is its first argument.
                 *
                 * @param descriptor the C function's descriptor
                 * @param options linker options ({@link #CAPTURE_ERRNO}, {@link #CRITICAL})
                 * @return the downcall handle
                 */
                public static MethodHandle handle(FunctionDescriptor descriptor, Linker.Option... options) {
                    return LINKER.downcallHandle(descriptor, options);
                }

                /**
                 * Every ADDRESS argument/return replaced by JAVA_LONG.
                 *
                 * @param descriptor a C function's descriptor
                 * @return the same descriptor with pointers passed as {@code long} addresses
                 */
                public static FunctionDescriptor rawAddresses(FunctionDescriptor descriptor) {
                    List<MemoryLayout> args = new ArrayList<>();
                    for (MemoryLayout a : descriptor.argumentLayouts()) {
                        args.add(raw(a));
                    }
                    MemoryLayout[] array = args.toArray(new MemoryLayout[0]);
                    return descriptor.returnLayout().isPresent()
                            ? FunctionDescriptor.of(raw(descriptor.returnLayout().get()), array)
                            : FunctionDescriptor.ofVoid(array);
                }

                private static MemoryLayout raw(MemoryLayout layout) {
                    return layout instanceof AddressLayout ? ValueLayout.JAVA_LONG : layout;
                }

                /**
                 * A libc function (Linker.nativeLinker().defaultLookup()), IllegalStateException if absent.
                 *
                 * @param name the C name, e.g. {@code fcntl}
                 * @return the function's address
                 */
                public static MemorySegment libc(String name) {
                    return LINKER.defaultLookup().find(name)
                            .orElseThrow(() -> new IllegalStateException("libc has no function " + name));
                }

                /**
                 * RuntimeException/Error rethrown as is; anything else (never happens: a downcall
                 * declares no checked exception) wrapped in IllegalStateException
                 * ({@code "calling <function> failed"}). Use as: {@code throw Downcalls.rethrow(fn, t)}.
                 *
                 * @param function the C function being called, named in a wrapped exception
                 * @param thrown what the handle threw
                 * @return the exception to throw
                 */
                public static RuntimeException rethrow(String function, Throwable thrown) {
                    if (thrown instanceof RuntimeException e) {
                        return e;
                    }
                    if (thrown instanceof Error e) {
                        throw e;
                    }
                    return new IllegalStateException("calling " + function + " failed", thrown);
                }
            }
            """;

    private static final String CALL_STATE = """
            import java.lang.foreign.Arena;
            import java.lang.foreign.Linker;
            import java.lang.foreign.MemoryLayout;
            import java.lang.foreign.MemorySegment;
            import java.lang.foreign.StructLayout;
            import java.lang.invoke.VarHandle;

            /**
             * The segment a downcall made with {@link Downcalls#CAPTURE_ERRNO} writes errno into, right
             * after the C function returns and before the JVM can clobber it. Every invoker that
             * captures errno takes one as its errno parameter.
             */
            public final class CallState {
                private static final StructLayout LAYOUT = Linker.Option.captureStateLayout();
                private static final VarHandle ERRNO =
                        LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

                private CallState() {}

                /**
                 * A capture segment allocated in {@code arena}.
                 *
                 * @param arena the arena that owns the segment
                 * @return a segment of {@link #layout()}
                 */
                public static MemorySegment allocate(Arena arena) {
                    return arena.allocate(LAYOUT);
                }

                /**
                 * The errno captured in {@code state} by the last call that used it.
                 *
                 * @param state a segment from {@link #allocate(Arena)}
                 * @return the captured errno
                 */
                public static int errno(MemorySegment state) {
                    return (int) ERRNO.get(state, 0L);
                }

                /**
                 * The layout of the capture segment.
                 *
                 * @return {@code Linker.Option.captureStateLayout()}
                 */
                public static StructLayout layout() {
                    return LAYOUT;
                }
            }
            """;

    private static final String NATIVE_LIBRARY = """
            import dev.panamaverbs.ffm.ExportedFunction;

            import java.lang.foreign.MemorySegment;
            import java.util.HashMap;
            import java.util.List;
            import java.util.Map;

            /**
             * One shared library's exported functions and, once the loader has resolved them, their
             * addresses. The invokers of a header call through {@link #address(int)}; nothing here
             * opens or searches a library.
             */
            public final class NativeLibrary {
                private final String soname;
                private final List<ExportedFunction> functions;
                private final Map<String, Integer> indexes = new HashMap<>();
                /** null until bound; then one address per function, null where an optional one is missing. */
                private volatile MemorySegment[] addresses;

                /**
                 * A library's function table, unbound.
                 *
                 * @param soname the library's soname, e.g. {@code libibverbs.so.1}
                 * @param functions the functions it exports, in index order
                 */
                public NativeLibrary(String soname, List<ExportedFunction> functions) {
                    this.soname = soname;
                    this.functions = List.copyOf(functions);
                    for (int i = 0; i < this.functions.size(); i++) {
                        indexes.put(this.functions.get(i).name(), i);
                    }
                }

                /**
                 * The library's soname.
                 *
                 * @return e.g. {@code libibverbs.so.1}
                 */
                public String soname() {
                    return soname;
                }

                /**
                 * The functions, in index order.
                 *
                 * @return an unmodifiable list
                 */
                public List<ExportedFunction> functions() {
                    return functions;
                }

                /**
                 * Once, by the loader, after its all-or-none resolution: name -> address (names not in
                 * {@link #functions()} are ignored; a NULL address counts as missing). Throws
                 * IllegalStateException if already bound or a required function is missing; nothing is
                 * bound then.
                 *
                 * @param resolved the addresses the loader resolved, by function name
                 */
                public synchronized void bind(Map<String, MemorySegment> resolved) {
                    if (addresses != null) {
                        throw new IllegalStateException(soname + " is already bound");
                    }
                    MemorySegment[] bound = new MemorySegment[functions.size()];
                    for (int i = 0; i < bound.length; i++) {
                        ExportedFunction f = functions.get(i);
                        MemorySegment address = resolved.get(f.name());
                        if (address != null && !address.equals(MemorySegment.NULL)) {
                            bound[i] = address;
                        } else if (f.required()) {
                            throw new IllegalStateException(soname + " lacks the required function "
                                    + f.name() + "@" + f.version());
                        }
                    }
                    addresses = bound;
                }

                /**
                 * Whether {@link #bind(Map)} has run.
                 *
                 * @return true once bound
                 */
                public boolean isBound() {
                    return addresses != null;
                }

                /**
                 * Bound, and this function (required or optional) was resolved.
                 *
                 * @param name the C name
                 * @return true when it can be called
                 */
                public boolean has(String name) {
                    MemorySegment[] a = addresses;
                    Integer index = indexes.get(name);
                    return a != null && index != null && a[index] != null;
                }

                /**
                 * Address of functions().get(index). IllegalStateException when unbound;
                 * UnsupportedOperationException when that optional function was not resolved.
                 *
                 * @param index the function's index in {@link #functions()}
                 * @return the function's address
                 */
                public MemorySegment address(int index) {
                    MemorySegment[] a = addresses;
                    if (a == null) {
                        throw new IllegalStateException(soname + " is not loaded (no library bound its functions)");
                    }
                    MemorySegment address = a[index];
                    if (address == null) {
                        ExportedFunction f = functions.get(index);
                        throw new UnsupportedOperationException(f.name() + "@" + f.version()
                                + " is not exported by " + soname);
                    }
                    return address;
                }
            }
            """;
}
