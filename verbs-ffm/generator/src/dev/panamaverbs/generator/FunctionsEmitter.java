package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Function;

import java.util.List;
import java.util.Map;

/**
 * VerbsFunctions: descriptor and default symbol version of every exported function declared
 * in verbs.h, and the list of static inline functions and function-like macros, which are never
 * symbols. Plus the two record types those lists hold.
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

    static String emit(List<Function> exported, Map<String, String> versions, List<Inline> inline, Written written) {
        StringBuilder out = new StringBuilder(Main.BANNER);
        out.append("package ").append(Main.PACKAGE).append(";\n\n");
        out.append("import java.lang.foreign.FunctionDescriptor;\n");
        out.append("import java.lang.foreign.ValueLayout;\n");
        out.append("import java.util.List;\n\n");
        out.append("/**\n")
                .append(" * The functions of infiniband/verbs.h. {@link #EXPORTED}: declared as functions and exported\n")
                .append(" * by libibverbs.so.1, each with its descriptor ({@code NAME$DESC}) and the default\n")
                .append(" * ({@code @@}) symbol version ({@code NAME$VERSION}). {@link #INLINE}: {@code static inline}\n")
                .append(" * functions and function-like macros, which are not symbols and must be reimplemented.\n")
                .append(" *\n")
                .append(" * <p>{@code ibv_reg_mr} and {@code ibv_query_port} are both: the header declares an exported\n")
                .append(" * function and then hides it behind a function-like macro of the same name (the macro adds\n")
                .append(" * optional behaviour: {@code IBV_ACCESS_OPTIONAL_RANGE} handling, the extended port query).\n")
                .append(" * They appear in both lists.\n")
                .append(" */\n");
        out.append("public final class VerbsFunctions {\n");
        out.append("    private VerbsFunctions() {}\n");
        for (Function f : exported) {
            String n = f.name();
            out.append("\n    /** {@code ").append(Names.javadoc(f.prototype())).append("} */\n");
            out.append("    public static final FunctionDescriptor ").append(n).append("$DESC = ")
                    .append(Layouts.descriptor(f.signature())).append(";\n");
            out.append("    /** Default symbol version of {@code ").append(n).append("}. */\n");
            out.append("    public static final String ").append(n).append("$VERSION = \"")
                    .append(versions.get(n)).append("\";\n");
        }
        out.append("\n    /** Every exported function declared in verbs.h, in header order. */\n");
        out.append("    public static final List<ExportedFunction> EXPORTED = List.of(");
        String sep = "\n            ";
        for (int i = 0; i < exported.size(); i++) {
            String n = exported.get(i).name();
            out.append(sep).append("new ExportedFunction(\"").append(n).append("\", ").append(n).append("$VERSION, ")
                    .append(n).append("$DESC)");
            written.exported().add(n);
            sep = ",\n            ";
        }
        out.append(");\n");
        out.append("\n    /** Static inline functions and function-like macros of verbs.h: never resolved as symbols. */\n");
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
        return Main.BANNER + "package " + Main.PACKAGE + ";\n\n"
                + "import java.lang.foreign.FunctionDescriptor;\n\n"
                + "/**\n"
                + " * A function exported by libibverbs.so.1 and declared in infiniband/verbs.h.\n"
                + " *\n"
                + " * @param name       the C name, which is the symbol name\n"
                + " * @param version    the default ({@code @@}) symbol version, e.g. {@code IBVERBS_1.1}\n"
                + " * @param descriptor the function's descriptor (pointers as {@code ValueLayout.ADDRESS})\n"
                + " */\n"
                + "public record ExportedFunction(String name, String version, FunctionDescriptor descriptor) {}\n";
    }

    static String inlineFunctionRecord() {
        return Main.BANNER + "package " + Main.PACKAGE + ";\n\n"
                + "/**\n"
                + " * A verbs.h function that is not a symbol of libibverbs: callers reimplement it.\n"
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
