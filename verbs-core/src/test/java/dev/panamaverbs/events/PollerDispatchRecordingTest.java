package dev.panamaverbs.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.gateway.Epoll;
import dev.panamaverbs.gateway.Libc;
import dev.panamaverbs.jfr.FlightEvents;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The poller records a sample of its dispatches as {@code dev.panamaverbs.PollerDispatch} while a recording asks for it. */
class PollerDispatchRecordingTest {
    private static final String EVENT = "dev.panamaverbs.PollerDispatch";

    @TempDir
    Path dir;

    @Test
    void aRecordingGetsSampledDispatchesWithTheirSource() throws Exception {
        int fd = Epoll.eventFd();
        assertTrue(fd >= 0, "eventfd: " + fd);
        int dispatches = 4 * FlightEvents.DISPATCH_SAMPLE_INTERVAL;
        Path dump = dir.resolve("dispatch.jfr");
        try (Poller poller = Poller.start("recorded-poller"); Recording recording = new Recording()) {
            PollSource source = poller.register(fd, "recorded fd");
            Semaphore handled = new Semaphore(0);
            source.setHandler(() -> {
                Epoll.eventFdRead(fd);
                handled.release();
            });
            recording.enable(EVENT);
            recording.start();
            for (int i = 0; i < dispatches; i++) {
                assertEquals(0, Epoll.eventFdWrite(fd, 1));
                assertTrue(handled.tryAcquire(30, TimeUnit.SECONDS), "dispatch " + i + " never ran the handler");
            }
            recording.stop();
            recording.dump(dump);
        } finally {
            Libc.close(fd);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump).stream()
                .filter(e -> e.getEventType().getName().equals(EVENT)).toList();
        assertFalse(events.isEmpty(), "no sampled dispatch in " + dispatches + " dispatches");
        assertTrue(events.size() <= dispatches / FlightEvents.DISPATCH_SAMPLE_INTERVAL + 1, "a sample, not a log: " + events.size());
        for (RecordedEvent event : events) {
            assertEquals("recorded fd", event.getString("source"));
            assertEquals(fd, event.getInt("fd"));
            assertEquals(1, event.getInt("woken"), "the handler");
            assertTrue(event.getLong("latency") >= 0);
        }
    }
}
