package dev.panamaverbs.loader;

import dev.panamaverbs.ffm.VerbsFunctions;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Index by name of the generated {@code VerbsFunctions.EXPORTED} and {@code VerbsFunctions.INLINE} lists. */
final class ExportedFunctions {
    private static final Map<String, SymbolSpec> EXPORTED;
    private static final Set<String> INLINE;

    static {
        Map<String, SymbolSpec> exported = new HashMap<>();
        for (var function : VerbsFunctions.EXPORTED) {
            exported.put(function.name(), new SymbolSpec(function.name(), function.version(), function.descriptor()));
        }
        Set<String> inline = new HashSet<>();
        for (var function : VerbsFunctions.INLINE) {
            inline.add(function.name());
        }
        EXPORTED = Map.copyOf(exported);
        INLINE = Set.copyOf(inline);
    }

    private ExportedFunctions() {}

    /** The exported function {@code name}; fails when the generated layer does not know it. */
    static SymbolSpec spec(String name) {
        SymbolSpec spec = EXPORTED.get(name);
        if (spec == null) {
            throw new IllegalStateException(name + " is not an exported function in VerbsFunctions.EXPORTED"
                    + (INLINE.contains(name) ? " (it is static inline in verbs.h: reach it through the ops tables)" : ""));
        }
        return spec;
    }

    static boolean isExported(String name) {
        return EXPORTED.containsKey(name);
    }

    /** True for names verbs.h defines as {@code static inline} functions or function-like macros. */
    static boolean isInline(String name) {
        return INLINE.contains(name);
    }
}
