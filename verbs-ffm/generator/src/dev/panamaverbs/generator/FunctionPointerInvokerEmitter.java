package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Invokers.Param;
import dev.panamaverbs.generator.Model.Field;
import dev.panamaverbs.generator.Model.FunctionPointer;

import java.util.List;

/**
 * {@code <struct>$calls}: for each function-pointer field of a record, a typed invoker taking
 * the function's address (read from the field) and errno's capture segment, and a {@code $raw}
 * one with pointers as {@code long} and no errno capture, for the data path; the {@code $raw}
 * handle is critical only where the target lists the field. A field the target lists as a
 * critical twin gets a third invoker, {@code $critical}: the {@code $raw} shape, critical.
 */
final class FunctionPointerInvokerEmitter {
    private FunctionPointerInvokerEmitter() {}

    /** "ibv_context_ops$calls"; a nested record's path (a.b) becomes a$b$calls. */
    static String className(String recordPath) {
        return recordPath.replace('.', '$') + "$calls";
    }

    /** {@code written} receives "record.field" for every field given its two invokers. */
    static String emit(Target target, String recordPath, List<Field> fields, List<String> written) {
        String top = recordPath.contains(".") ? recordPath.substring(0, recordPath.indexOf('.')) : recordPath;
        String name = className(recordPath);
        StringBuilder out = Invokers.openClass(target, target.packageName() + '.' + top, name,
                " * Invokers of the function pointers of {@code " + recordPath
                        + "}: {@code function} is the pointer read from the field.\n"
                        + " * {@code NAME}: errno captured into a {@link CallState} segment. {@code NAME$raw}: pointers\n"
                        + " * as {@code long}, no errno capture.\n");
        for (Field f : fields) {
            FunctionPointer fp = (FunctionPointer) f.type();
            String desc = recordPath + "." + f.name() + "$DESC";
            String declaration = "{@code " + Names.javadoc(declarator(f)) + "}";
            boolean critical = target.isCritical(recordPath, f.cName());
            String label = recordPath + "." + f.cName();
            Invokers.emit(out, new Invokers.Spec(declaration + ": errno captured.", f.name(),
                    List.of(new Param("MemorySegment", "function", "the function pointer read from the field"), new Param("MemorySegment", "errno", "a {@link CallState} segment that receives errno")),
                    fp.signature(), fp.paramNames(), false, "function", true,
                    "Downcalls.handle(" + desc + ", Downcalls.CAPTURE_ERRNO)", label));
            Invokers.emit(out, new Invokers.Spec(declaration + ": raw, pointers as long, no errno capture"
                            + (critical ? ", critical (no thread-state transition)." : "."),
                    f.name() + "$raw", List.of(new Param("MemorySegment", "function", "the function pointer read from the field")), fp.signature(),
                    fp.paramNames(), true, "function", false,
                    "Downcalls.handle(Downcalls.rawAddresses(" + desc + ")"
                            + (critical ? ", Downcalls.CRITICAL)" : ")"), label));
            if (target.hasCriticalTwin(recordPath, f.cName())) {
                Invokers.emit(out, new Invokers.Spec(declaration + ": as {@code " + f.name() + "$raw}, but critical"
                                + " (no thread-state transition): only for a provider whose function never makes a"
                                + " system call or waits.",
                        f.name() + "$critical", List.of(new Param("MemorySegment", "function", "the function pointer read from the field")),
                        fp.signature(), fp.paramNames(), true, "function", false,
                        "Downcalls.handle(Downcalls.rawAddresses(" + desc + "), Downcalls.CRITICAL)", label));
            }
            written.add(recordPath + "." + f.cName());
        }
        out.append("}\n");
        return out.toString();
    }

    /** "int (*post_send)(struct ibv_qp *, ...)" from the field's type spelling "int (*)(...)". */
    private static String declarator(Field f) {
        String spelling = f.cSpelling();
        int star = spelling.indexOf("(*)");
        return star >= 0
                ? spelling.substring(0, star) + "(*" + f.cName() + ")" + spelling.substring(star + 3)
                : spelling + " " + f.cName();
    }
}
