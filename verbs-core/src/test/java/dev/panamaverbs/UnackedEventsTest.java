package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The completion-event acknowledgement batching, the pure Java part of ibv_ack_cq_events. */
class UnackedEventsTest {

    @Test
    void acknowledgesAWholeBatchWhenItFills() {
        UnackedEvents events = new UnackedEvents(3);
        assertEquals(0, events.record());
        assertEquals(0, events.record());
        assertEquals(2, events.outstanding());
        assertEquals(3, events.record());
        assertEquals(0, events.outstanding());
        assertEquals(0, events.record());
        assertEquals(1, events.outstanding());
    }

    @Test
    void batchOfOneAcknowledgesEachEvent() {
        UnackedEvents events = new UnackedEvents(1);
        assertEquals(1, events.record());
        assertEquals(1, events.record());
        assertEquals(0, events.outstanding());
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
