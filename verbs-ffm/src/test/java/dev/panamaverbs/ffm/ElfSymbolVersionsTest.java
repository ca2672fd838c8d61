package dev.panamaverbs.ffm;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The generator's ELF reader (--elf-versions) on the real libibverbs.so.1. */
class ElfSymbolVersionsTest {

    @Test
    void readsTheDefaultVersionOfEachExportedFunction() throws Exception {
        assumeTrue(GeneratorProcess.sourcesPresent(), "generator sources not found");
        assumeTrue(Files.isRegularFile(GeneratorProcess.LIBIBVERBS), "no " + GeneratorProcess.LIBIBVERBS);

        GeneratorProcess.Result r = GeneratorProcess.run("--elf-versions", GeneratorProcess.LIBIBVERBS.toString());
        assertEquals(0, r.exitCode(), r.output());
        Map<String, String> versions = new HashMap<>();
        r.output().lines().forEach(line -> {
            String[] parts = line.split(" ", 2);
            versions.put(parts[0], parts.length > 1 ? parts[1] : "");
        });

        assertEquals("IBVERBS_1.1", versions.get("ibv_open_device"));
        assertEquals("IBVERBS_1.8", versions.get("ibv_reg_mr_iova2"));
        assertEquals("IBVERBS_1.12", versions.get("ibv_reg_dmabuf_mr"));
        assertEquals("IBVERBS_1.10", versions.get("ibv_query_ece"));
        // ibv_create_cq also has a hidden IBVERBS_1.0 compatibility entry: the default is 1.1.
        assertEquals("IBVERBS_1.1", versions.get("ibv_create_cq"));
        // static inline in verbs.h, so not a symbol.
        assertNull(versions.get("ibv_post_send"));
        assertFalse(versions.isEmpty());
    }
}
