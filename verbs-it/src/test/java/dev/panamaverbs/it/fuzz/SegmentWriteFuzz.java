package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.module.ModuleReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Writes through every public segment. The methods are found as {@code PublicSegmentsTest} finds
 * them (public methods of the API's public classes returning a {@link MemorySegment} or
 * {@link ByteBuffer}), in every exported package of the module; each must have a sample here,
 * read-only or writable as the ownership table in {@code package-info.java} says. Through a
 * read-only segment every write (set, fill, copy, its ByteBuffer) must be refused; through a
 * writable one, seeded writes inside it land and writes outside are
 * {@link IndexOutOfBoundsException}. A completion batch full of random bytes is read through
 * every accessor (values or {@link IllegalArgumentException}, never a crash), then polled into.
 * After its owner closes, a writable segment kept from before, and a ByteBuffer made from it,
 * refuse reads and writes with {@link IllegalStateException}: closing never frees memory that
 * can still be reached.
 */
final class SegmentWriteFuzz {
    private static final int WRITES = 8;

    private SegmentWriteFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws Exception {
        TreeSet<String> methods = publicSegmentMethods();
        System.out.println("public segment methods: " + methods);
        Random random = run.random();
        try (Arena arena = Arena.ofShared(); FuzzTree tree = FuzzTree.open(device, arena);
                RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            Window window = Window.allocate(pair.protectionDomain(), 4096);
            MemoryRegion owned = pair.protectionDomain().allocateMemoryRegion(8192,
                    java.util.EnumSet.of(dev.panamaverbs.values.AccessFlag.LOCAL_WRITE));
            Completions completions = Completions.allocate(arena, 8);
            Map<String, List<Supplier<MemorySegment>>> readOnly = Map.of(
                    "VerbsResource#handle", tree.resources().stream().<Supplier<MemorySegment>>map(r -> r::handle).toList(),
                    "SendWorkRequest#segment", List.of(() -> SendWorkRequest.allocate(arena, 2).segment()),
                    "ReceiveWorkRequest#segment", List.of(() -> ReceiveWorkRequest.allocate(arena, 2).segment()));
            Map<String, List<Supplier<MemorySegment>>> writable = Map.of(
                    "Completions#segment", List.of(completions::segment),
                    "MemoryRegion#memory", List.of(owned::memory, pair.firstBuffer().region()::memory),
                    "MemoryRegion#slice", List.of(() -> owned.slice(64, 128)),
                    "Window#memory", List.of(window::memory));
            for (String method : methods) {
                if (!readOnly.containsKey(method) && !writable.containsKey(method)) {
                    run.unexpected(method, "a public segment without a fuzz sample: add it here, read-only or writable"
                            + " as package-info.java's ownership table says");
                }
            }
            readOnly.forEach((method, samples) -> samples.forEach(sample -> refusesWrites(run, random, method, sample.get())));
            writable.forEach((method, samples) -> samples.forEach(sample -> takesWrites(run, random, method, sample.get())));
            garbageCompletions(run, random, pair, completions);
            MemorySegment ownedMemory = owned.memory();
            ByteBuffer ownedBuffer = ownedMemory.asByteBuffer();
            MemorySegment windowMemory = window.memory();
            ByteBuffer windowBuffer = windowMemory.asByteBuffer();
            owned.close();
            window.close();
            for (var kept : List.of(Map.entry("MemoryRegion#memory", ownedMemory), Map.entry("Window#memory", windowMemory))) {
                List<Class<? extends Throwable>> closed = List.of(IllegalStateException.class);
                run.run(kept.getKey() + " kept past close: write", closed, () -> {
                    kept.getValue().set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
                    throw new AssertionError("wrote to memory its owner freed");
                });
            }
            for (var kept : List.of(Map.entry("MemoryRegion#memory", ownedBuffer), Map.entry("Window#memory", windowBuffer))) {
                List<Class<? extends Throwable>> closed = List.of(IllegalStateException.class);
                run.run(kept.getKey() + " as ByteBuffer kept past close: get", closed, () -> {
                    kept.getValue().get(0);
                    throw new AssertionError("read memory its owner freed through a ByteBuffer");
                });
                run.run(kept.getKey() + " as ByteBuffer kept past close: put", closed, () -> {
                    kept.getValue().put(0, (byte) 1);
                    throw new AssertionError("wrote memory its owner freed through a ByteBuffer");
                });
            }
        }
    }

    private static void refusesWrites(FuzzRun run, Random random, String method, MemorySegment segment) {
        List<Class<? extends Throwable>> refusals = List.of(UnsupportedOperationException.class, IllegalArgumentException.class,
                IndexOutOfBoundsException.class);
        long size = Math.max(1, segment.byteSize());
        for (int i = 0; i < WRITES; i++) {
            long offset = random.nextLong(size);
            int kind = random.nextInt(4);
            run.run(method + " read-only write " + kind + " at " + offset, refusals, () -> {
                switch (kind) {
                    case 0 -> segment.set(ValueLayout.JAVA_BYTE, offset, (byte) 0x5a);
                    case 1 -> segment.asSlice(offset).fill((byte) 0);
                    case 2 -> segment.asSlice(offset).copyFrom(MemorySegment.ofArray(new byte[1]));
                    default -> segment.asByteBuffer().put((int) Math.min(offset, Integer.MAX_VALUE - 1), (byte) 1);
                }
                throw new AssertionError("wrote through the read-only " + method);
            });
        }
    }

    private static void takesWrites(FuzzRun run, Random random, String method, MemorySegment segment) {
        for (int i = 0; i < WRITES; i++) {
            long offset = random.nextLong(segment.byteSize());
            byte value = (byte) random.nextInt();
            run.run(method + " write at " + offset, List.of(), () -> {
                segment.set(ValueLayout.JAVA_BYTE, offset, value);
                if (segment.get(ValueLayout.JAVA_BYTE, offset) != value) {
                    throw new AssertionError("the write did not land");
                }
            });
        }
        long outside = segment.byteSize() + random.nextInt(4096);
        run.run(method + " write outside at " + outside, List.of(IndexOutOfBoundsException.class), () -> {
            segment.set(ValueLayout.JAVA_BYTE, outside, (byte) 1);
            throw new AssertionError("wrote outside " + method);
        });
    }

    /** Random bytes in the whole batch, every accessor of every entry, then a poll into it. */
    private static void garbageCompletions(FuzzRun run, Random random, RcLoopbackPair pair, Completions completions) {
        byte[] bytes = new byte[(int) completions.segment().byteSize()];
        random.nextBytes(bytes);
        completions.segment().copyFrom(MemorySegment.ofArray(bytes));
        for (Method method : Completions.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || method.getParameterCount() != 1
                    || method.getParameterTypes()[0] != int.class) {
                continue;
            }
            run.run("Completions." + method.getName() + " of random bytes", FuzzRun.MISUSE, () -> {
                for (int i = 0; i < completions.capacity(); i++) {
                    try {
                        method.invoke(completions, i);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            });
        }
        run.run("poll into a batch of random bytes", List.of(), () -> pair.firstQueue().poll(completions));
    }

    /** "SimpleClassName#method" of the public methods returning a segment or buffer, in the API's exported packages. */
    private static TreeSet<String> publicSegmentMethods() throws IOException, ClassNotFoundException {
        Module module = VerbsResource.class.getModule();
        if (!module.isNamed()) {
            throw new IllegalStateException("the API is not a named module here: " + module);
        }
        List<String> classes = new ArrayList<>();
        try (ModuleReader reader = ModuleLayer.boot().configuration().findModule(module.getName()).orElseThrow()
                .reference().open()) {
            reader.list().filter(name -> name.endsWith(".class") && !name.equals("module-info.class"))
                    .forEach(name -> classes.add(name.substring(0, name.length() - ".class".length()).replace('/', '.')));
        }
        TreeSet<String> found = new TreeSet<>();
        for (String name : classes) {
            Class<?> type = Class.forName(name, false, VerbsResource.class.getClassLoader());
            if (!module.isExported(type.getPackageName()) || !Modifier.isPublic(type.getModifiers())) {
                continue;
            }
            for (Method method : type.getDeclaredMethods()) {
                if (handsOutMemory(method)) {
                    found.add(type.getSimpleName() + "#" + method.getName());
                }
            }
        }
        if (found.size() < 4) {
            throw new IllegalStateException("found too few public segment methods: " + found);
        }
        return found;
    }

    /** A public method of the API's own (not a bridge) that returns a MemorySegment or a ByteBuffer. */
    private static boolean handsOutMemory(Method method) {
        Class<?> returned = method.getReturnType();
        return Modifier.isPublic(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()
                && (MemorySegment.class.isAssignableFrom(returned) || ByteBuffer.class.isAssignableFrom(returned));
    }
}
