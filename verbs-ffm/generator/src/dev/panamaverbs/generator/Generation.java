package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Function;
import dev.panamaverbs.generator.Model.Record;
import dev.panamaverbs.generator.Model.Skipped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** One generator run: parse, evaluate macros, match symbols, render every file in memory. */
final class Generation {
    private static final String DIR = "dev/panamaverbs/ffm/";

    private final SortedMap<String, String> files = new TreeMap<>();
    private final StringBuilder report = new StringBuilder();

    private Generation() {}

    SortedMap<String, String> files() {
        return files;
    }

    String report() {
        return report.toString();
    }

    static Generation run(Path header, Path library, String builtinInclude) throws IOException {
        Generation g = new Generation();
        ElfSymbolVersions elf = ElfSymbolVersions.read(library);
        List<String> args = clangArgs(builtinInclude);

        Clang.TranslationUnit tu = Clang.parse(header.toString(), null, args,
                Clang.PARSE_DETAILED_PREPROCESSING_RECORD | Clang.PARSE_SKIP_FUNCTION_BODIES);
        List<String> errors = tu.errors();
        if (!errors.isEmpty()) {
            throw new IllegalStateException("libclang reported errors parsing " + header + " with " + args
                    + ":\n  " + String.join("\n  ", errors));
        }
        HeaderScanner scan = new HeaderScanner();
        scan.scan(tu.cursor());
        MacroEvaluator macros = new MacroEvaluator();
        macros.evaluate(header.toString(), scan.objectMacros, args);

        List<Skipped> skipped = new ArrayList<>(scan.skipped);
        skipped.addAll(macros.skipped);
        List<Function> exported = new ArrayList<>();
        List<FunctionsEmitter.Inline> inline = new ArrayList<>();
        Map<String, String> versions = new TreeMap<>();
        int declared = 0;
        for (Function f : scan.functions.values()) {
            if (f.inline()) {
                inline.add(new FunctionsEmitter.Inline(f.name(), false));
                continue;
            }
            declared++;
            String version = elf.versionOf(f.name());
            if (version == null) {
                skipped.add(new Skipped("function " + f.name(), "declared but not exported by " + library.getFileName()));
            } else if (f.signature().variadic()) {
                skipped.add(new Skipped("function " + f.name(), "variadic"));
            } else {
                exported.add(f);
                versions.put(f.name(), version);
            }
        }
        for (String m : scan.functionMacros) {
            inline.add(new FunctionsEmitter.Inline(m, true));
        }

        List<Record> all = new ArrayList<>(scan.records.values());
        all.addAll(scan.foreignRecords.values());
        g.files.put("module-info.java", IndexEmitter.moduleInfo());
        for (Record r : all) {
            g.files.put(DIR + r.javaName() + ".java", RecordEmitter.emit(r));
        }
        g.files.put(DIR + "VerbsLayouts.java", IndexEmitter.layouts(all));
        HashSet<String> constantNames = new HashSet<>();
        g.files.put(DIR + "VerbsConstants.java",
                ConstantsEmitter.emit(scan.enumConstants, macros.constants, constantNames));
        g.files.put(DIR + "VerbsFunctions.java", FunctionsEmitter.emit(exported, versions, inline));
        g.files.put(DIR + "ExportedFunction.java", FunctionsEmitter.exportedFunctionRecord());
        g.files.put(DIR + "InlineFunction.java", FunctionsEmitter.inlineFunctionRecord());

        List<String> undeclared = new ArrayList<>();
        for (String symbol : elf.defaultVersions().keySet()) {
            if ((symbol.startsWith("ibv_") || symbol.startsWith("_ibv_")) && !scan.functions.containsKey(symbol)) {
                undeclared.add(symbol + "@@" + elf.versionOf(symbol));
            }
        }

        long unions = scan.records.values().stream().filter(Record::union).count();
        CoverageReport.Counts counts = new CoverageReport.Counts(
                scan.structsFound, scan.records.size() - unions, scan.unionsFound, unions,
                scan.foreignRecords.size(), scan.enums.size(), scan.enumConstants.size(),
                scan.objectMacros.size(), macros.constants.size(), constantNames.size(),
                declared, exported.size(), inline.size() - scan.functionMacros.size(), scan.functionMacros.size());
        g.report.append(CoverageReport.render(header.toString(), library.toString(), counts, skipped, undeclared,
                scan.foreignRecords.values()));
        return g;
    }

    /** C dialect of the headers and where the compiler's builtin headers (stddef.h) are. */
    static List<String> clangArgs(String builtinInclude) throws IOException {
        String builtin = builtinInclude != null ? builtinInclude : findBuiltinInclude();
        List<String> args = new ArrayList<>(List.of("-x", "c", "-std=gnu11", "-ferror-limit=0"));
        if (builtin != null) {
            args.add("-isystem");
            args.add(builtin);
        }
        return args;
    }

    /**
     * libclang1-14 ships without its resource directory (that is libclang-common-14-dev), so
     * stddef.h comes from gcc's builtin headers, which clang reads fine; clang's own are used
     * if they happen to be installed and gcc is not.
     */
    private static String findBuiltinInclude() throws IOException {
        try {
            Process p = new ProcessBuilder("gcc", "-print-file-name=include").redirectErrorStream(true).start();
            String dir = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() == 0 && Files.isRegularFile(Path.of(dir, "stddef.h"))) {
                return dir;
            }
        } catch (IOException | InterruptedException e) {
            // no gcc: try clang's resource directory below
        }
        Path llvm = Path.of("/usr/lib/llvm-14/lib/clang");
        if (Files.isDirectory(llvm)) {
            try (Stream<Path> versions = Files.list(llvm)) {
                for (Path v : versions.sorted().toList()) {
                    if (Files.isRegularFile(v.resolve("include/stddef.h"))) {
                        return v.resolve("include").toString();
                    }
                }
            }
        }
        return null;
    }
}
