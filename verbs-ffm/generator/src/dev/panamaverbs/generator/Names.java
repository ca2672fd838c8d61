package dev.panamaverbs.generator;

import java.util.Set;

/** Java spelling of C names. */
final class Names {
    private Names() {}

    private static final Set<String> JAVA_KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
            "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
            "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
            "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
            "volatile", "while", "true", "false", "null", "_", "var", "yield", "record");

    /** A C identifier usable as a Java identifier: keywords get a trailing underscore. */
    static String javaIdentifier(String cName) {
        return JAVA_KEYWORDS.contains(cName) ? cName + "_" : cName;
    }

    /** "readOpcode" for "read_opcode": a C snake_case name as a Java method or record component. */
    static String camelCase(String cName) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char ch : cName.toCharArray()) {
            if (ch == '_') {
                upper = out.length() > 0;
            } else {
                out.append(upper ? Character.toUpperCase(ch) : ch);
                upper = false;
            }
        }
        return out.toString();
    }

    /** Removes host-specific paths from clang's spelling of anonymous types. */
    static String portableSpelling(String clangSpelling) {
        return clangSpelling.replaceAll("\\((?:unnamed|anonymous)[^)]*\\)", "(anonymous)");
    }

    /** "infiniband/verbs.h" for "/usr/include/infiniband/verbs.h", "rdma/rdma_cma.h" likewise. */
    static String headerName(String path) {
        for (String dir : new String[] {"infiniband/", "rdma/"}) {
            int i = path.lastIndexOf(dir);
            if (i >= 0 && (i == 0 || path.charAt(i - 1) == '/')) {
                return path.substring(i);
            }
        }
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Escapes text for a Java string literal or a javadoc comment. */
    static String javadoc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("*/", "*&#47;").replace("@", "&#64;").replace("{", "&#123;").replace("}", "&#125;");
    }
}
