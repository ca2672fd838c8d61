package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Function;

import java.util.List;
import java.util.Map;

/**
 * VerbsFunctions (RdmaCmFunctions ...): descriptor and default symbol version of every exported
 * function the header declares, and the list of static inline functions and function-like macros,
 * which are never symbols. Plus the two record types those lists hold, shared by every run.
 */
final class FunctionsEmitter {
    private FunctionsEmitter() {}

    /** A function-like macro or static inline function name and its kind. */
    record Inline(String name, boolean macro) {}

    /** What {@link #emit} wrote into EXPORTED and INLINE: the coverage report's "emitted" side. */
    record Written(List<String> exported, List<String> staticInline, List<String> macros) {
        Written() {
            this(new java.util.ArrayList<>(), new java.util.ArrayList<>(), new java.util.ArrayList<>());
        }
    }

    static String emit(Target target, List<Function> exported, Map<String, String> versions, List<Inline> inline,
                       Written written) {
        String file = target.header().getFileName().toString();
        StringBuilder out = new StringBuilder(target.banner());
        out.append("package ").append(target.packageName()).append(";\n\n");
        if (!target.packageName().equals(Target.BASE_PACKAGE)) {
            out.append("import ").append(Target.BASE_PACKAGE).append(".ExportedFunction;\n");
            out.append("import ").append(Target.BASE_PACKAGE).append(".InlineFunction;\n\n");
        }
        out.append("import java.lang.foreign.FunctionDescriptor;\n");
        out.append("import java.lang.foreign.ValueLayout;\n");
        out.append("import java.util.List;\n\n");
        out.append("/**\n")
                .append(" * The functions of ").append(target.headerName())
                .append(". {@link #EXPORTED}: declared as functions and exported\n")
                .append(" * by ").append(target.soname())
                .append(", each with its default ({@code @@}) symbol version ({@code NAME$VERSION})\n")
                .append(" * and its descriptor ({@link #descriptor}). {@link #INLINE}: {@code static inline}\n")
                .append(" * functions and function-like macros, which are not symbols and must be reimplemented.\n")
                .append(" *\n")
                .append(" * <p>Descriptors are built on request, one function at a time: the loader's probe needs\n")
                .append(" * only names and versions, and building every descriptor up front cost a cold JVM's\n")
                .append(" * first {@code isAvailable()} about 10-20 ms.\n")
                .append(target.functionsNote())
                .append(" */\n");
        String name = target.classPrefix() + "Functions";
        out.append("public final class ").append(name).append(" {\n");
        out.append("    private ").append(name).append("() {}\n");
        for (Function f : exported) {
            String n = f.name();
            out.append("\n    /** Default symbol version of {@code ").append(Names.javadoc(f.prototype())).append("}. */\n");
            out.append("    public static final String ").append(n).append("$VERSION = \"")
                    .append(versions.get(n)).append("\";\n");
        }
        out.append("\n    /**\n")
                .append("     * The descriptor of the exported function {@code name} (pointers as {@code ValueLayout.ADDRESS}),\n")
                .append("     * built anew on each call.\n")
                .append("     *\n")
                .append("     * @param name the C name of a function of {@link #EXPORTED}\n")
                .append("     * @return its descriptor\n")
                .append("     * @throws IllegalArgumentException when {@code name} is not in {@link #EXPORTED}\n")
                .append("     */\n");
        out.append("    public static FunctionDescriptor descriptor(String name) {\n");
        out.append("        return switch (name) {\n");
        for (Function f : exported) {
            out.append("            case \"").append(f.name()).append("\" -> ")
                    .append(Layouts.descriptor(f.signature())).append(";\n");
        }
        out.append("            default -> throw new IllegalArgumentException(\"").append(target.soname())
                .append(" exports no function \" + name + \" that ").append(file).append(" declares\");\n");
        out.append("        };\n    }\n");
        out.append("\n    /**\n")
                .append("     * Every exported function declared in ").append(file).append(", in header order; required\n")
                .append("     * when its version is one of ").append(String.join(", ", new java.util.TreeSet<>(target.baseVersions())))
                .append(".\n     */\n");
        out.append("    public static final List<ExportedFunction> EXPORTED = List.of(");
        String sep = "\n            ";
        for (int i = 0; i < exported.size(); i++) {
            String n = exported.get(i).name();
            out.append(sep).append("new ExportedFunction(\"").append(n).append("\", ").append(n).append("$VERSION, ")
                    .append(target.baseVersions().contains(versions.get(n))).append(")");
            written.exported().add(n);
            sep = ",\n            ";
        }
        out.append(");\n");
        out.append("\n    /** Static inline functions and function-like macros of ").append(file)
                .append(": never resolved as symbols. */\n");
        out.append("    public static final List<InlineFunction> INLINE = List.of(");
        sep = "\n            ";
        for (Inline i : inline) {
            out.append(sep).append("new InlineFunction(\"").append(i.name()).append("\", InlineFunction.Kind.")
                    .append(i.macro() ? "FUNCTION_LIKE_MACRO" : "STATIC_INLINE").append(")");
            (i.macro() ? written.macros() : written.staticInline()).add(i.name());
            sep = ",\n            ";
        }
        out.append(");\n}\n");
        return out.toString();
    }

    static String exportedFunctionRecord() {
        return Main.BANNER + "package " + Target.BASE_PACKAGE + ";\n\n"
                + "/**\n"
                + " * A function a shared library exports and its header declares (VerbsFunctions.EXPORTED:\n"
                + " * libibverbs.so.1 and infiniband/verbs.h; RdmaCmFunctions.EXPORTED: librdmacm.so.1 and\n"
                + " * rdma/rdma_cma.h). Its descriptor comes from the same class's {@code descriptor(name)}.\n"
                + " *\n"
                + " * @param name     the C name, which is the symbol name\n"
                + " * @param version  the default ({@code @@}) symbol version, e.g. {@code IBVERBS_1.1}\n"
                + " * @param required true when {@code version} is a base version of the library (IBVERBS_1.0,\n"
                + " *                 IBVERBS_1.1, RDMACM_1.0), which every supported library exports: the\n"
                + " *                 library is unusable without it. Optional functions may be missing.\n"
                + " */\n"
                + "public record ExportedFunction(String name, String version, boolean required) {}\n";
    }

    static String inlineFunctionRecord() {
        return Main.BANNER + "package " + Target.BASE_PACKAGE + ";\n\n"
                + "/**\n"
                + " * A function of a header that is not a symbol of its library: callers reimplement it.\n"
                + " *\n"
                + " * @param name the C name\n"
                + " * @param kind how the header defines it\n"
                + " */\n"
                + "public record InlineFunction(String name, Kind kind) {\n"
                + "    /** How the header defines an inline function. */\n"
                + "    public enum Kind {\n"
                + "        /** A {@code static inline} function. */\n"
                + "        STATIC_INLINE,\n"
                + "        /** A function-like {@code #define}. */\n"
                + "        FUNCTION_LIKE_MACRO\n"
                + "    }\n"
                + "}\n";
    }
}
