package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Clang.Cursor;
import dev.panamaverbs.generator.Model.MacroConstant;
import dev.panamaverbs.generator.Model.Skipped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates object-like macros the way jextract does: a second translation unit includes the
 * header and declares {@code __auto_type __pv_NAME = (NAME);} per macro; every variable whose
 * initializer clang folds to an integer is a constant. Macros that expand to types, attributes
 * or nothing fail to compile or to fold and are reported as skipped.
 */
final class MacroEvaluator {
    private static final String PREFIX = "__pv_";
    private static final String SOURCE = "/__panamaverbs_macros__.c";

    final List<MacroConstant> constants = new ArrayList<>();
    final List<Skipped> skipped = new ArrayList<>();

    void evaluate(String headerPath, List<String> macroNames, List<String> clangArgs) {
        StringBuilder src = new StringBuilder("#include \"").append(headerPath).append("\"\n");
        for (String name : macroNames) {
            src.append("__auto_type ").append(PREFIX).append(name).append(" = (").append(name).append(");\n");
        }
        Clang.TranslationUnit tu = Clang.parse(SOURCE, src.toString(), clangArgs, Clang.PARSE_SKIP_FUNCTION_BODIES);
        // Line n + 2 of the source declares macroNames[n]; a macro whose line has an error is skipped,
        // whatever clang's error recovery made of the variable.
        java.util.Set<String> failed = new java.util.HashSet<>();
        java.util.regex.Pattern where = java.util.regex.Pattern.compile(
                java.util.regex.Pattern.quote(SOURCE) + ":(\\d+):");
        for (String error : tu.errors()) {
            java.util.regex.Matcher m = where.matcher(error);
            if (m.find()) {
                int index = Integer.parseInt(m.group(1)) - 2;
                if (index >= 0 && index < macroNames.size()) {
                    failed.add(macroNames.get(index));
                }
            }
        }
        Map<String, Cursor> vars = new HashMap<>();
        for (Cursor c : tu.cursor().children()) {
            if (c.kind() == Clang.CURSOR_VAR_DECL && c.spelling().startsWith(PREFIX) && SOURCE.equals(c.fileName())) {
                vars.put(c.spelling().substring(PREFIX.length()), c);
            }
        }
        for (String name : macroNames) {
            Cursor var = vars.get(name);
            if (var == null || failed.contains(name)) {
                skipped.add(new Skipped("#define " + name, "does not expand to an expression"));
                continue;
            }
            int kind = var.type().canonical().kind();
            if (var.type().canonical().spelling().equals("__auto_type")) {
                skipped.add(new Skipped("#define " + name, "does not expand to an expression (empty, a type or an attribute)"));
                continue;
            }
            if (!HeaderScanner.isInteger(kind)) {
                skipped.add(new Skipped("#define " + name, "not an integer constant (type "
                        + Names.portableSpelling(var.type().canonical().spelling()) + ")"));
                continue;
            }
            Long value = var.evaluateInteger();
            if (value == null) {
                skipped.add(new Skipped("#define " + name, "not a constant expression"));
                continue;
            }
            constants.add(new MacroConstant(name, value, HeaderScanner.isUnsigned(kind)));
        }
    }
}
