package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Invokers.Param;
import dev.panamaverbs.generator.Model.Function;

import java.util.List;
import java.util.Map;

/**
 * verbs_h (rdma_cma_h ...): the library's {@code NativeLibrary} and one typed static method per
 * exported function, in the order of the functions class's EXPORTED list (its index is the
 * function's slot in the library's address table).
 */
final class ExportedInvokerEmitter {
    private ExportedInvokerEmitter() {}

    /** {@code written} receives the name of every function given an invoker. */
    static String emit(Target target, List<Function> exported, Map<String, String> versions, List<String> written) {
        String functions = target.classPrefix() + "Functions";
        String name = target.invokerClass();
        StringBuilder out = Invokers.openClass(target, target.packageName() + '.' + functions, name,
                " * The functions " + target.soname() + " exports and " + target.headerName()
                        + " declares, one typed method each,\n"
                        + " * calling through the address the loader bound into {@link #LIBRARY}. The first parameter\n"
                        + " * of each is a {@link CallState} segment that receives errno.\n");
        out.append('\n');
        out.append("    /** The addresses of {@link ").append(functions).append("#EXPORTED}, bound by the loader. */\n");
        out.append("    public static final NativeLibrary LIBRARY = new NativeLibrary(\"").append(target.soname())
                .append("\", ").append(functions).append(".EXPORTED);\n");
        for (int i = 0; i < exported.size(); i++) {
            Function f = exported.get(i);
            String version = versions.get(f.name());
            String doc = "{@code " + Names.javadoc(f.prototype()) + "} (" + version
                    + (target.baseVersions().contains(version) ? "" : ", optional")
                    + "). errno lands in {@code errno}.";
            Invokers.emit(out, new Invokers.Spec(doc, f.name(), List.of(new Param("MemorySegment", "errno", "a {@link CallState} segment that receives errno")),
                    f.signature(), f.paramNames(), false, "LIBRARY.address(" + i + ")", true,
                    "Downcalls.handle(" + functions + ".descriptor(\"" + f.name() + "\"), Downcalls.CAPTURE_ERRNO)", f.name()));
            written.add(f.name());
        }
        out.append("}\n");
        return out.toString();
    }
}
