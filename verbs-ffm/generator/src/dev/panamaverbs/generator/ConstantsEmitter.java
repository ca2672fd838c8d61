package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.EnumConstant;
import dev.panamaverbs.generator.Model.MacroConstant;

import java.util.List;
import java.util.Set;

/** VerbsConstants: every enum constant and integer #define, int when it fits, else long. */
final class ConstantsEmitter {
    private ConstantsEmitter() {}

    static String emit(List<EnumConstant> enumConstants, List<MacroConstant> macros, Set<String> names) {
        StringBuilder out = new StringBuilder(Main.BANNER);
        out.append("package ").append(Main.PACKAGE).append(";\n\n");
        out.append("/**\n * The enum constants and integer {@code #define}s of infiniband/verbs.h. Values are the C\n")
                .append(" * values; a constant is an {@code int} when its value fits one, else a {@code long}\n")
                .append(" * (unsigned values are never wrapped into a negative {@code int}).\n */\n");
        out.append("public final class VerbsConstants {\n");
        out.append("    private VerbsConstants() {}\n");
        String currentEnum = null;
        for (EnumConstant e : enumConstants) {
            if (!e.enumName().equals(currentEnum)) {
                currentEnum = e.enumName();
                out.append("\n    // ").append(currentEnum).append('\n');
            }
            constant(out, e.name(), e.value(), e.unsigned(), names);
        }
        out.append("\n    // #define\n");
        for (MacroConstant m : macros) {
            constant(out, m.name(), m.value(), m.unsigned(), names);
        }
        out.append("}\n");
        return out.toString();
    }

    private static void constant(StringBuilder out, String name, long value, boolean unsigned, Set<String> names) {
        if (!names.add(name)) {
            return; // already emitted (a #define repeating an enum name, say)
        }
        boolean fitsInt = unsigned ? value >= 0 && value <= Integer.MAX_VALUE
                : value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
        out.append("    public static final ");
        if (fitsInt) {
            out.append("int ").append(name).append(" = ").append(value).append(";\n");
        } else if (unsigned && value < 0) {
            out.append("long ").append(name).append(" = 0x").append(Long.toHexString(value)).append("L;\n");
        } else {
            out.append("long ").append(name).append(" = ").append(value).append("L;\n");
        }
    }
}
