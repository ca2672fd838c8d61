package dev.panamaverbs.loader;

import java.lang.foreign.FunctionDescriptor;

/** One exported libibverbs function: its name, the symbol version it is pinned to, its C signature. */
record SymbolSpec(String name, String version, FunctionDescriptor descriptor) {
    /** {@code name@version}, as causes and logs print it. */
    @Override
    public String toString() {
        return name + "@" + version;
    }
}
