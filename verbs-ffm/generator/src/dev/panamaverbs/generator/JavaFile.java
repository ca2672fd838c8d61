package dev.panamaverbs.generator;

import java.util.List;

/** The opening every generated source shares: the banner, the package line, the imports in two groups. */
final class JavaFile {
    private JavaFile() {}

    /**
     * A builder holding the file's banner, {@code package}, then {@code projectImports} and
     * {@code javaImports}, each group followed by an empty line when it has any.
     */
    static StringBuilder start(Target target, String packageName, List<String> projectImports, List<String> javaImports) {
        StringBuilder out = new StringBuilder(target.banner());
        out.append("package ").append(packageName).append(";\n\n");
        for (List<String> group : List.of(projectImports, javaImports)) {
            for (String name : group) {
                out.append("import ").append(name).append(";\n");
            }
            if (!group.isEmpty()) {
                out.append('\n');
            }
        }
        return out;
    }
}
