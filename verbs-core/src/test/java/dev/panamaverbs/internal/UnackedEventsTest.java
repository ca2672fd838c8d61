package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The completion-event acknowledgement batching, the pure Java part of ibv_ack_cq_events. */
class UnackedEventsTest {

    static Stream<Arguments> batches() {
        return Stream.of(
                // a batch of 3: the third event acknowledges all three
                Arguments.of(3, new int[] {0, 0, 3, 0}, new int[] {1, 2, 0, 1}),
                // a batch of 1 acknowledges each event
                Arguments.of(1, new int[] {1, 1}, new int[] {0, 0}));
    }

    /** One event recorded per entry of {@code acknowledged}: what each acknowledges, and what is then outstanding. */
    @ParameterizedTest(name = "batch of {0}")
    @MethodSource("batches")
    void acknowledgesAWholeBatchWhenItFills(int batch, int[] acknowledged, int[] outstanding) {
        UnackedEvents events = new UnackedEvents(batch);
        for (int i = 0; i < acknowledged.length; i++) {
            assertEquals(acknowledged[i], events.record(), "event " + i);
            assertEquals(outstanding[i], events.outstanding(), "after event " + i);
        }
    }

    @Test
    void takeAllDrainsWhatIsOutstandingForDestroy() {
        UnackedEvents events = new UnackedEvents(10);
        events.record();
        events.record();
        assertEquals(2, events.takeAll());
        assertEquals(0, events.takeAll());
        assertEquals(0, events.outstanding());
    }

    @Test
    void shrinkingTheBatchFlushesAtTheNextEvent() {
        UnackedEvents events = new UnackedEvents(10);
        for (int i = 0; i < 5; i++) {
            events.record();
        }
        events.batch(2);
        assertEquals(6, events.record(), "the next event acknowledges everything outstanding");
    }

    @Test
    void batchMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UnackedEvents(0));
        assertEquals("ibv_ack_cq_events: the acknowledgement batch must be >= 1, got 0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new UnackedEvents(5).batch(-1));
    }

    @Test
    void everyEventIsAcknowledgedExactlyOnceUnderConcurrency() throws Exception {
        UnackedEvents events = new UnackedEvents(7);
        int threads = 4;
        int perThread = 10_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Long>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    long acknowledged = 0;
                    for (int i = 0; i < perThread; i++) {
                        acknowledged += events.record();
                        if (i % 1000 == 0) {
                            acknowledged += events.takeAll();
                        }
                    }
                    return acknowledged;
                });
            }
            long total = 0;
            for (Future<Long> f : pool.invokeAll(tasks)) {
                total += f.get();
            }
            total += events.takeAll();
            assertEquals((long) threads * perThread, total);
        } finally {
            pool.shutdownNow();
        }
    }
}
