package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.EnumConstant;
import dev.panamaverbs.generator.Model.MacroConstant;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** VerbsConstants (RdmaCmConstants ...): every enum constant and integer #define, int when it fits, else long. */
final class ConstantsEmitter {
    private ConstantsEmitter() {}

    /** What {@link #emit} wrote: the coverage report's "emitted" side. */
    static final class Written {
        final List<String> enums = new ArrayList<>();
        final List<String> enumConstants = new ArrayList<>();
        final List<String> macros = new ArrayList<>();
        /** Constants not written, with the reason. */
        final Map<String, String> notWritten = new LinkedHashMap<>();
    }

    static String emit(Target target, List<EnumConstant> enumConstants, List<MacroConstant> macros, Set<String> names,
                       Written written) {
        StringBuilder out = new StringBuilder(target.banner());
        out.append("package ").append(target.packageName()).append(";\n\n");
        out.append("/**\n * The enum constants and integer {@code #define}s of ").append(target.headerName())
                .append(". Values are the C\n")
                .append(" * values; a constant is an {@code int} when its value fits one, else a {@code long}\n")
                .append(" * (unsigned values are never wrapped into a negative {@code int}).\n */\n");
        String name = target.classPrefix() + "Constants";
        out.append("public final class ").append(name).append(" {\n");
        out.append("    private ").append(name).append("() {}\n");
        int currentEnum = -1;
        for (EnumConstant e : enumConstants) {
            if (e.enumIndex() != currentEnum) {
                currentEnum = e.enumIndex();
                out.append("\n    // ").append(e.enumName()).append('\n');
                written.enums.add(HeaderScanner.enumLabel(e.enumName(), e.name()));
            }
            String of = e.enumName().isEmpty() ? "an anonymous enum" : "{@code " + Names.javadoc(e.enumName()) + "}";
            if (constant(out, e.name(), e.value(), e.unsigned(), names, "Enum constant {@code " + e.name() + "} of " + of + ".")) {
                written.enumConstants.add(e.name());
            } else {
                written.notWritten.put(e.name(), "a constant of this name is already emitted");
            }
        }
        out.append("\n    // #define\n");
        for (MacroConstant m : macros) {
            if (constant(out, m.name(), m.value(), m.unsigned(), names, "{@code #define " + m.name() + "}.")) {
                written.macros.add(m.name());
            } else {
                written.notWritten.put(m.name(), "same name as an enum constant, emitted once");
            }
        }
        out.append("}\n");
        return out.toString();
    }

    private static boolean constant(StringBuilder out, String name, long value, boolean unsigned, Set<String> names,
                                    String doc) {
        if (!names.add(name)) {
            return false; // already emitted (a #define repeating an enum name, say)
        }
        boolean fitsInt = unsigned ? value >= 0 && value <= Integer.MAX_VALUE
                : value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
        out.append("    /** ").append(doc).append(" */\n");
        out.append("    public static final ");
        if (fitsInt) {
            out.append("int ").append(name).append(" = ").append(value).append(";\n");
        } else if (unsigned && value < 0) {
            out.append("long ").append(name).append(" = 0x").append(Long.toHexString(value)).append("L;\n");
        } else {
            out.append("long ").append(name).append(" = ").append(value).append("L;\n");
        }
        return true;
    }
}
