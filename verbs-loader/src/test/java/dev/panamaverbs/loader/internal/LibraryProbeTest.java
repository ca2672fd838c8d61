package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.ExportedFunction;
import dev.panamaverbs.ffm.VerbsFunctions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Probing fake libraries built with gcc: all required symbols or none, optional ones as found. */
class LibraryProbeTest {
    private static final Set<String> REQUIRED = names(true);
    private static final Set<String> OPTIONAL = names(false);

    private static Set<String> names(boolean required) {
        return VerbsFunctions.EXPORTED.stream().filter(f -> f.required() == required).map(ExportedFunction::name)
                .collect(Collectors.toSet());
    }

    @Test
    void aMissingFileIsUnavailableWithThePathAndDlerror() {
        Path missing = Path.of(System.getProperty("basedir", "."), "target", "no-such-dir", "libibverbs-missing.so");
        LoadResult result = LibraryProbe.probe(missing);

        assertFalse(result.isAvailable());
        String cause = result.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains(missing.toString()), cause);
        assertTrue(cause.contains("No such file or directory"), cause); // dlerror's text
        assertTrue(result.resolvedSymbols().isEmpty());
        assertTrue(result.unavailabilityFailure().isEmpty(), "dlopen failing throws nothing");
    }

    @Test
    void aProbeThatThrowsKeepsTheThrowableBehindTheCause() {
        LoadResult result = LibraryProbe.probe("libibverbs.so.1", null); // no function list: the probe throws

        assertFalse(result.isAvailable());
        Throwable failure = result.unavailabilityFailure().orElseThrow();
        assertTrue(failure instanceof NullPointerException, String.valueOf(failure));
        assertTrue(result.unavailabilityCause().orElseThrow().contains(failure.toString()));
    }

    @Test
    void aCompleteLibraryIsAvailableWithEveryFunction() throws IOException {
        Path library = FakeProvider.standardLibrary();
        LoadResult result = LibraryProbe.probe(library);

        assertTrue(result.isAvailable(), result::toString);
        assertEquals(library.toRealPath().toString(), result.libraryPath());
        assertEquals(library.toString(), result.requestedLibrary());
        assertTrue(result.unavailabilityCause().isEmpty());
        assertTrue(result.resolvedSymbols().containsAll(REQUIRED));
        assertTrue(result.resolvedSymbols().containsAll(OPTIONAL));
    }

    /** libraryPath() is the file dlopen mapped, found through /proc/self/maps, not the name it was given. */
    @Test
    void theLibraryPathIsTheFileLoadedNotTheNameRequested() throws IOException {
        Path target = FakeProvider.standardLibrary().toRealPath();
        Path link = Files.createTempDirectory(target.getParent(), "link-").resolve("libfakeverbs-link.so.1");
        Files.createSymbolicLink(link, target);
        LoadResult result = LibraryProbe.probe(link);

        assertTrue(result.isAvailable(), result::toString);
        assertEquals(link.toString(), result.requestedLibrary());
        assertEquals(target.toString(), result.libraryPath());
        assertTrue(result.toString().contains(target.toString()), result::toString);

        LoadResult missing = LibraryProbe.probe(link.resolveSibling("absent.so"));
        assertEquals(missing.requestedLibrary(), missing.libraryPath(), "nothing loaded: the requested name");
    }

    @Test
    void aMissingRequiredSymbolMakesItUnavailableWithNothingResolved() throws IOException {
        Path library = FakeLibrary.named("fakeverbs-no-query-gid").omit("ibv_query_gid").build();

        LoadResult first = LibraryProbe.probe(library);
        assertFalse(first.isAvailable());
        String cause = first.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("ibv_query_gid@IBVERBS_1.1"), cause);
        assertTrue(cause.contains(library.toString()), cause);
        assertTrue(first.resolvedSymbols().isEmpty(), "no symbol may stay resolved");
        // dlclose really ran: the failed library is no longer mapped into the process.
        assertFalse(Files.readString(Path.of("/proc/self/maps")).contains(library.toString()),
                "a library that failed the probe must be closed");

        LoadResult second = LibraryProbe.probe(library);
        assertFalse(second.isAvailable());
        assertEquals(cause, second.unavailabilityCause().orElseThrow(), "a second probe gives the same answer");
        assertTrue(second.resolvedSymbols().isEmpty());
    }

    @Test
    void everyMissingRequiredSymbolIsNamed() {
        Path library = FakeLibrary.named("fakeverbs-no-pd").omit("ibv_alloc_pd").omit("ibv_dealloc_pd").build();
        String cause = LibraryProbe.probe(library).unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("ibv_alloc_pd@IBVERBS_1.1") && cause.contains("ibv_dealloc_pd@IBVERBS_1.1"), cause);
    }

    @Test
    void aRequiredSymbolAtTheWrongVersionMakesItUnavailable() {
        Path library = FakeLibrary.named("fakeverbs-old-alloc-pd").version("ibv_alloc_pd", "IBVERBS_1.0").build();
        LoadResult result = LibraryProbe.probe(library);

        assertFalse(result.isAvailable());
        String cause = result.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("ibv_alloc_pd@IBVERBS_1.1"), cause);
        assertFalse(cause.contains("ibv_dealloc_pd"), "only the mis-versioned symbol is missing: " + cause);
        assertTrue(result.resolvedSymbols().isEmpty());
    }

    @Test
    void missingOptionalSymbolsAreOnlyAbsent() {
        LoadResult result = LibraryProbe.probe(FakeLibrary.named("fakeverbs-no-optional").omitAllOptional().build());

        assertTrue(result.isAvailable(), result::toString);
        assertEquals(REQUIRED, result.resolvedSymbols());
        assertFalse(result.has("ibv_reg_mr_iova2"));
    }

    @Test
    void eachOptionalSymbolIsResolvedOnItsOwn() {
        LoadResult result = LibraryProbe.probe(FakeLibrary.named("fakeverbs-half-ece").omit("ibv_set_ece").build());

        assertTrue(result.isAvailable(), result::toString);
        assertFalse(result.has("ibv_set_ece"));
        assertTrue(result.has("ibv_query_ece"), "a capability of two functions is judged above, not here");
    }

    @Test
    void aLibraryMissingManyRequiredSymbolsCountsThemAndNamesTheFirstFew() {
        FakeLibrary many = FakeLibrary.named("fakeverbs-many-missing");
        List<String> omitted = REQUIRED.stream().sorted().limit(12).toList();
        omitted.forEach(many::omit);
        String cause = LibraryProbe.probe(many.build()).unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("lacks 12 required symbols: "), cause);
        assertTrue(cause.contains(" and " + (12 - LibraryProbe.MISSING_NAMED) + " more"), cause);
        long named = omitted.stream().filter(cause::contains).count();
        assertEquals(LibraryProbe.MISSING_NAMED, named, cause);
    }

    @Test
    void anOptionalSymbolAtTooOldAVersionDoesNotCount() {
        LoadResult result = LibraryProbe.probe(
                FakeLibrary.named("fakeverbs-old-iova2").version("ibv_reg_mr_iova2", "IBVERBS_1.1").build());
        assertTrue(result.isAvailable());
        assertFalse(result.has("ibv_reg_mr_iova2"));
        assertTrue(result.has("ibv_reg_dmabuf_mr"));
    }
}
