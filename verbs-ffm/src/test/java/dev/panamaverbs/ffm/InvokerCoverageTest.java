package dev.panamaverbs.ffm;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;
import dev.panamaverbs.ffm.invoke.verbs_h;
import dev.panamaverbs.ffm.rdmacm.RdmaCmFunctions;
import dev.panamaverbs.ffm.rdmacm.RdmaCmLayouts;
import org.junit.jupiter.api.Test;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every exported function has its typed invoker and every function-pointer field its two
 * {@code $calls} invokers, with the Java signature its descriptor implies.
 */
class InvokerCoverageTest {
    private static final String INVOKE = "dev.panamaverbs.ffm.invoke.";

    @Test
    void everyExportedFunctionHasATypedInvoker() throws Exception {
        assertInvokers(verbs_h.class, VerbsFunctions.EXPORTED, VerbsFunctions::descriptor);
        assertInvokers(rdma_cma_h.class, RdmaCmFunctions.EXPORTED, RdmaCmFunctions::descriptor);
        assertEquals(VerbsFunctions.EXPORTED, verbs_h.LIBRARY.functions());
        assertEquals("libibverbs.so.1", verbs_h.LIBRARY.soname());
        assertEquals(RdmaCmFunctions.EXPORTED, rdma_cma_h.LIBRARY.functions());
        assertEquals("librdmacm.so.1", rdma_cma_h.LIBRARY.soname());
    }

    private static void assertInvokers(Class<?> invokers, List<ExportedFunction> exported,
                                       Function<String, FunctionDescriptor> descriptors) throws Exception {
        assertTrue(exported.size() > 30, invokers + ": only " + exported.size() + " functions");
        for (ExportedFunction f : exported) {
            FunctionDescriptor descriptor = descriptors.apply(f.name());
            assertEquals(descriptor, descriptors.apply(f.name()), f.name()); // built anew, equal each time
            List<Class<?>> params = new ArrayList<>(List.of(MemorySegment.class)); // errno
            params.addAll(carriers(descriptor, false));
            Method m = invokers.getMethod(f.name(), params.toArray(new Class<?>[0]));
            assertTrue(Modifier.isStatic(m.getModifiers()), m.toString());
            assertEquals(returnCarrier(descriptor, false), m.getReturnType(), m.toString());
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> descriptors.apply("ibv_post_send")); // static inline: no symbol, no descriptor
        assertTrue(unknown.getMessage().contains("ibv_post_send"), unknown.getMessage());
        long methods = Arrays.stream(invokers.getDeclaredMethods()).filter(m -> Modifier.isPublic(m.getModifiers())).count();
        assertEquals(exported.size(), methods, "public methods of " + invokers);
    }

    @Test
    void requiredMeansABaseVersion() {
        Set<String> base = Set.of("IBVERBS_1.0", "IBVERBS_1.1", "RDMACM_1.0");
        List<ExportedFunction> all = new ArrayList<>(VerbsFunctions.EXPORTED);
        all.addAll(RdmaCmFunctions.EXPORTED);
        for (ExportedFunction f : all) {
            assertEquals(base.contains(f.version()), f.required(), f.toString());
        }
        assertTrue(all.stream().anyMatch(f -> !f.required()), "no optional function at all");
    }

    @Test
    void everyFunctionPointerFieldHasCallsInvokers() throws Exception {
        int fields = 0;
        for (Map<String, GroupLayout> index : List.of(VerbsLayouts.ALL, RdmaCmLayouts.ALL)) {
            for (GroupLayout layout : index.values()) {
                String pkg = index == VerbsLayouts.ALL ? "dev.panamaverbs.ffm." : "dev.panamaverbs.ffm.rdmacm.";
                fields += checkRecord(Class.forName(pkg + layout.name().orElseThrow()), "");
            }
        }
        // ibv_context_ops, verbs_context, ibv_cq_ex, ibv_qp_ex, _ibv_device_ops ... hold over 100.
        assertTrue(fields > 100, "only " + fields + " function-pointer fields");
        Method pollCq = Class.forName(INVOKE + "ibv_context_ops$calls").getMethod("poll_cq$raw",
                MemorySegment.class, long.class, int.class, long.class);
        assertEquals(int.class, pollCq.getReturnType());
    }

    /** Checks the record's (and its nested records') function-pointer fields; returns their number. */
    private static int checkRecord(Class<?> record, String outer) throws Exception {
        String path = outer + record.getSimpleName();
        int count = 0;
        for (Field f : record.getDeclaredFields()) {
            if (!f.getName().endsWith("$DESC") || f.getType() != FunctionDescriptor.class) {
                continue;
            }
            FunctionDescriptor d = (FunctionDescriptor) f.get(null);
            String name = f.getName().substring(0, f.getName().length() - "$DESC".length());
            Class<?> calls = Class.forName(INVOKE + path + "$calls");
            List<Class<?>> captured = new ArrayList<>(List.of(MemorySegment.class, MemorySegment.class));
            captured.addAll(carriers(d, false));
            assertEquals(returnCarrier(d, false),
                    calls.getMethod(name, captured.toArray(new Class<?>[0])).getReturnType(), path + "." + name);
            List<Class<?>> raw = new ArrayList<>(List.of(MemorySegment.class));
            raw.addAll(carriers(d, true));
            assertEquals(returnCarrier(d, true),
                    calls.getMethod(name + "$raw", raw.toArray(new Class<?>[0])).getReturnType(), path + "." + name);
            count++;
        }
        for (Class<?> nested : record.getDeclaredClasses()) {
            count += checkRecord(nested, path + "$");
        }
        return count;
    }

    private static List<Class<?>> carriers(FunctionDescriptor d, boolean raw) {
        List<Class<?>> out = new ArrayList<>();
        for (MemoryLayout l : d.argumentLayouts()) {
            out.add(carrier(l, raw));
        }
        return out;
    }

    private static Class<?> returnCarrier(FunctionDescriptor d, boolean raw) {
        return d.returnLayout().isPresent() ? carrier(d.returnLayout().get(), raw) : void.class;
    }

    private static Class<?> carrier(MemoryLayout l, boolean raw) {
        if (l instanceof AddressLayout) {
            return raw ? long.class : MemorySegment.class;
        }
        if (l instanceof ValueLayout v) {
            return v.carrier();
        }
        return MemorySegment.class; // a struct by value
    }
}
