package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.CType;
import dev.panamaverbs.generator.Model.FunctionPointer;
import dev.panamaverbs.generator.Model.Pointer;
import dev.panamaverbs.generator.Model.Scalar;
import dev.panamaverbs.generator.Model.Signature;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One typed invoker: a static method calling an unbound downcall handle held by a lazily
 * initialised holder class (the JVM creates the handle on the first call, and the JIT sees a
 * constant). Shared by the exported-function and the function-pointer invokers.
 */
final class Invokers {
    private Invokers() {}

    /** A parameter of the Java method. */
    record Param(String type, String name, String doc) {}

    /**
     * An invoker. {@code leading} comes before the C parameters; {@code target} is the expression
     * of the function's address, {@code handle} the expression creating the handle, {@code label}
     * the function named in a wrapped exception.
     */
    record Spec(String doc, String method, List<Param> leading, Signature signature, List<String> cNames,
                boolean raw, String target, boolean errno, String handle, String label) {}

    static void emit(StringBuilder out, Spec s) {
        Signature sig = s.signature();
        if (sig.result() instanceof Model.RecordRef) {
            throw new IllegalStateException(s.label() + " returns a struct by value: no invoker shape for it");
        }
        Set<String> taken = new HashSet<>(List.of("t"));
        List<String> params = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of(s.target()));
        List<String> tags = new ArrayList<>();
        for (Param p : s.leading()) {
            taken.add(p.name());
            params.add(p.type() + " " + p.name());
            tags.add("@param " + p.name() + " " + p.doc());
        }
        if (s.errno()) {
            args.add("errno");
        }
        for (int i = 0; i < sig.params().size(); i++) {
            String c = i < s.cNames().size() ? s.cNames().get(i) : "";
            String name = c.isEmpty() ? "a" + i : Names.javaIdentifier(c);
            while (!taken.add(name)) {
                name = name + "_";
            }
            params.add(javaType(sig.params().get(i), s.raw()) + " " + name);
            args.add(name);
            tags.add("@param " + name + " " + (c.isEmpty() ? "the C function's argument " + (i + 1) : "the C argument {@code " + c + "}")
                    + carrierNote(sig.params().get(i), s.raw()));
        }
        String result = sig.result() == null ? "void" : javaType(sig.result(), s.raw());
        String holder = s.method() + "$";
        if (sig.result() != null) {
            tags.add("@return what the C function returns" + carrierNote(sig.result(), s.raw()));
        }
        out.append("\n    /**\n     * ").append(s.doc()).append("\n     *\n");
        for (String tag : tags) {
            out.append("     * ").append(tag).append('\n');
        }
        out.append("     */\n");
        out.append("    public static ").append(result).append(' ').append(s.method()).append('(')
                .append(String.join(", ", params)).append(") {\n");
        out.append("        try {\n");
        out.append("            ").append(result.equals("void") ? "" : "return (" + result + ") ")
                .append(holder).append(".HANDLE.invokeExact(").append(String.join(", ", args)).append(");\n");
        out.append("        } catch (Throwable t) {\n");
        out.append("            throw Downcalls.rethrow(\"").append(s.label()).append("\", t);\n");
        out.append("        }\n");
        out.append("    }\n\n");
        out.append("    private static final class ").append(holder).append(" {\n");
        out.append("        static final MethodHandle HANDLE = ").append(s.handle()).append(";\n");
        out.append("    }\n");
    }

    /** How a pointer travels: as a raw address ({@code long}) or a zero-length segment. */
    private static String carrierNote(CType type, boolean raw) {
        return switch (type) {
            case Pointer p -> raw ? " (a pointer, as its address)" : " (a pointer)";
            case FunctionPointer f -> raw ? " (a function pointer, as its address)" : " (a function pointer)";
            default -> "";
        };
    }

    /** The Java carrier: primitives as in the descriptor, pointers MemorySegment (long when raw). */
    static String javaType(CType type, boolean raw) {
        return switch (type) {
            case Scalar s -> s.carrier().javaType;
            case Pointer p -> raw ? "long" : "MemorySegment";
            case FunctionPointer f -> raw ? "long" : "MemorySegment";
            default -> "MemorySegment"; // a struct or union by value
        };
    }

    /**
     * An invoker class's opening: the file header importing {@code projectImport}, the class
     * javadoc ({@code javadocLines}, each " * "-prefixed and ending in a newline), the declaration
     * and its private constructor.
     */
    static StringBuilder openClass(Target target, String projectImport, String name, String javadocLines) {
        StringBuilder out = JavaFile.start(target, Target.INVOKE_PACKAGE, List.of(projectImport),
                List.of("java.lang.foreign.MemorySegment", "java.lang.invoke.MethodHandle"));
        out.append("/**\n").append(javadocLines).append(" */\n");
        out.append("public final class ").append(name).append(" {\n");
        out.append("    private ").append(name).append("() {}\n");
        return out;
    }
}
