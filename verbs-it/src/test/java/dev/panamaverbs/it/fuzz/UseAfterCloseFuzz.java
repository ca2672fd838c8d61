package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.Completions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Use after close of every resource and every accessor: one {@link FuzzTree} is closed (some
 * nodes first, in a seeded order, then the context), and every public instance method of every
 * resource is called by reflection, in a seeded order, with arguments it can be given. A method
 * must be refused: {@link IllegalStateException}, or {@link IllegalArgumentException} /
 * {@link VerbsUnsupportedException} for a call invalid in any state; it may answer only if it is
 * one of {@link #ANSWERS_AFTER_CLOSE} (values kept in Java fields since creation, never the
 * native object). A handle kept from before the close must refuse to be read.
 */
final class UseAfterCloseFuzz {
    /** Methods that answer after close from Java state (or close again, idempotently). */
    static final Set<String> ANSWERS_AFTER_CLOSE = Set.of(
            "close", "isClosed", "toString",
            "Context.isOwnedByConnectionManager", "Context.device", "Context.completionVectorCount",
            "Context.maxAttributes", "Context.portCount", "CompletionQueue.setEventAckBatch",
            "CompletionQueue.isExtended", "CompletionQueue.fields", "CompletionQueue.unacknowledgedEvents",
            "CompletionQueue.eventAckBatch", "CompletionQueue.context", "CompletionQueue.channel",
            "QueuePair.number", "QueuePair.type", "QueuePair.state", "QueuePair.connectionId",
            "QueuePair.protectionDomain", "QueuePair.sendCompletionQueue", "QueuePair.receiveCompletionQueue",
            "QueuePair.sharedReceiveQueue", "QueuePair.capabilities", "QueuePair.isExtended",
            "QueuePair.extendedSendOperations", "SharedReceiveQueue.maxSge", "SharedReceiveQueue.maxWorkRequests",
            "CompletionChannel.context", "CompletionChannel.fd", "ConnectionEventChannel.fd",
            "ConnectionId.channel", "ConnectionId.portSpace", "ConnectionId.queuePair", "ConnectionId.state", "ProtectionDomain.context",
            "AddressHandle.protectionDomain", "SharedReceiveQueue.protectionDomain", "MemoryWindow.type");

    private UseAfterCloseFuzz() {}

    static void run(TestDevice device, FuzzRun run) {
        try (Arena arena = Arena.ofShared()) {
            FuzzTree tree = FuzzTree.open(device, arena);
            Map<VerbsResource, MemorySegment> handles = new HashMap<>();
            tree.resources().forEach(resource -> handles.put(resource, resource.handle()));
            List<VerbsResource> order = new ArrayList<>(tree.resources());
            Collections.shuffle(order, run.random());
            for (VerbsResource resource : order.subList(0, order.size() / 2)) {
                run.run("close " + resource.getClass().getSimpleName(), List.of(), resource::close);
            }
            tree.close();
            Map<Class<?>, Supplier<Object>> arguments = arguments(arena, tree);
            for (VerbsResource resource : order) {
                String type = resource.getClass().getSimpleName();
                run.run(type + ".handle() kept from before close", List.of(IllegalStateException.class),
                        () -> handles.get(resource).get(ValueLayout.JAVA_BYTE, 0));
                List<Method> methods = new ArrayList<>(List.of(resource.getClass().getMethods()));
                methods.sort(java.util.Comparator.comparing(Method::toString));
                Collections.shuffle(methods, run.random());
                for (Method method : methods) {
                    if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class
                            || method.getName().equals("hashCode") || method.getName().equals("equals")) {
                        continue;
                    }
                    Object[] args = argumentsFor(method, arguments);
                    if (args == null) {
                        System.out.println("not called (no argument for it): " + method);
                        continue;
                    }
                    call(run, resource, method, args);
                }
            }
        }
    }

    private static void call(FuzzRun run, VerbsResource resource, Method method, Object[] args) {
        String type = resource.getClass().getSimpleName();
        String name = type + "." + method.getName();
        boolean answers = ANSWERS_AFTER_CLOSE.contains(name) || ANSWERS_AFTER_CLOSE.contains(method.getName());
        // A call invalid whatever the state (toRtr() on RC, an empty mask, a verb the device lacks)
        // may say so instead; either way it is refused before the native object is touched.
        List<Class<? extends Throwable>> expected = List.of(IllegalStateException.class, IllegalArgumentException.class,
                VerbsUnsupportedException.class);
        run.run(name + signature(method), expected, () -> {
            Object result;
            try {
                result = method.invoke(resource, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (!answers) {
                throw new AssertionError(name + " answered after close (" + result + "): it must throw "
                        + "IllegalStateException, or be listed as answering from Java state");
            }
            if (result instanceof MemorySegment segment) {
                segment.get(ValueLayout.JAVA_BYTE, 0); // must throw: the scope ended
                throw new AssertionError(name + " returned a readable segment after close");
            }
        });
    }

    private static String signature(Method method) {
        StringBuilder text = new StringBuilder("(");
        for (Class<?> parameter : method.getParameterTypes()) {
            text.append(text.length() > 1 ? "," : "").append(parameter.getSimpleName());
        }
        return text.append(")").toString();
    }

    /** Arguments for {@code method}, or null when one of its parameter types has none. */
    private static Object[] argumentsFor(Method method, Map<Class<?>, Supplier<Object>> arguments) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Supplier<Object> supplier = arguments.get(types[i]);
            if (supplier == null && types[i].isEnum()) {
                args[i] = types[i].getEnumConstants()[0];
            } else if (supplier == null) {
                for (Map.Entry<Class<?>, Supplier<Object>> entry : arguments.entrySet()) {
                    if (types[i].isAssignableFrom(entry.getKey()) && types[i] != Object.class) {
                        supplier = entry.getValue();
                        break;
                    }
                }
                if (supplier == null) {
                    return null;
                }
                args[i] = supplier.get();
            } else {
                args[i] = supplier.get();
            }
        }
        return args;
    }

    /** Valid-looking arguments by parameter type: live memory and requests, the tree's closed resources. */
    private static Map<Class<?>, Supplier<Object>> arguments(Arena arena, FuzzTree tree) {
        Map<Class<?>, Supplier<Object>> arguments = new HashMap<>();
        arguments.put(int.class, () -> 1);
        arguments.put(long.class, () -> 64L);
        arguments.put(boolean.class, () -> false);
        arguments.put(Duration.class, () -> Duration.ofMillis(10));
        arguments.put(Set.class, Set::of);
        arguments.put(String.class, () -> "fuzz");
        arguments.put(byte[].class, () -> new byte[8]);
        arguments.put(java.util.function.Consumer.class, () -> (java.util.function.Consumer<Object>) event -> { });
        MemorySegment memory = arena.allocate(4096, 4096);
        arguments.put(MemorySegment.class, () -> memory);
        arguments.put(Completions.class, () -> Completions.allocate(arena, 4));
        arguments.put(SendWorkRequest.class, () -> SendWorkRequest.allocate(arena, 1).wrId(1));
        arguments.put(ReceiveWorkRequest.class, () -> ReceiveWorkRequest.allocate(arena, 1).wrId(2));
        arguments.put(java.net.InetSocketAddress.class, () -> new java.net.InetSocketAddress("127.0.0.1", 1));
        for (VerbsResource resource : tree.resources()) {
            arguments.putIfAbsent(resource.getClass(), () -> resource);
        }
        return arguments;
    }
}
