package dev.panamaverbs.loader.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertSame;

/** Many threads racing to the first use see one probe and one result. Own JVM (fork per class). */
class LibIbverbsConcurrentFirstUseTest {

    @Test
    void racingFirstUsesShareOneResult() throws Exception {
        System.setProperty(LibraryProbe.LIBRARY_PROPERTY, FakeProvider.standardLibrary().toString());
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<LoadResult>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return LibIbverbs.LIBRARY.result();
                }));
            }
            start.countDown();
            LoadResult first = results.get(0).get();
            for (Future<LoadResult> result : results) {
                assertSame(first, result.get());
            }
            assertSame(first, LibIbverbs.LIBRARY.result());
        } finally {
            pool.shutdownNow();
        }
    }
}
