package dev.panamaverbs.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every event the library commits, recorded with {@link Recording}, dumped and read back by name and field. */
class FlightEventsTest {
    private static final List<Class<? extends jdk.jfr.Event>> TYPES = List.of(ConnectionEstablishedEvent.class,
            ConnectionRejectedEvent.class, ConnectionDisconnectedEvent.class, QueuePairStateChangeEvent.class,
            QueuePairErrorEvent.class, DeviceAsyncEvent.class, FailedCompletionEvent.class, PollerDispatchEvent.class);

    @TempDir
    Path dir;

    @Test
    void everyTypeIsNamedLabelledAndDescribed() {
        for (Class<? extends jdk.jfr.Event> type : TYPES) {
            EventType eventType = EventType.getEventType(type);
            assertTrue(eventType.getName().startsWith("dev.panamaverbs."), eventType.getName());
            assertNotNull(eventType.getLabel(), eventType.getName());
            assertNotNull(eventType.getDescription(), eventType.getName());
            assertTrue(eventType.getCategoryNames().contains("panama-verbs"), eventType.getName());
            for (ValueDescriptor field : eventType.getFields()) {
                if (!List.of("startTime", "duration", "eventThread", "stackTrace").contains(field.getName())) {
                    assertNotNull(field.getLabel(), eventType.getName() + "." + field.getName());
                    assertNotNull(field.getDescription(), eventType.getName() + "." + field.getName());
                }
            }
        }
    }

    @Test
    void connectionEventsAreReadBackWithTheirFields() throws IOException {
        List<RecordedEvent> events = record(() -> {
            FlightEvents.connection(FlightEvents.ConnectionOutcome.ESTABLISHED, "rxe0", 17, "10.0.0.1:4000",
                    "10.0.0.2:5000", 0, "status 0");
            FlightEvents.connection(FlightEvents.ConnectionOutcome.REJECTED, "rxe0", 18, "10.0.0.1:4001",
                    "10.0.0.2:5001", 28, "status 28 (IB_CM_REJ_CONSUMER_DEFINED: rejected by the peer)");
            FlightEvents.connection(FlightEvents.ConnectionOutcome.DISCONNECTED, "rxe0", 17, "10.0.0.1:4000",
                    "10.0.0.2:5000", 0, "status 0");
        });
        RecordedEvent established = only(events, "dev.panamaverbs.ConnectionEstablished");
        assertEquals("rxe0", established.getString("device"));
        assertEquals(17, established.getInt("queuePairNumber"));
        assertEquals("10.0.0.1:4000", established.getString("localAddress"));
        assertEquals("10.0.0.2:5000", established.getString("peerAddress"));
        RecordedEvent rejected = only(events, "dev.panamaverbs.ConnectionRejected");
        assertEquals(28, rejected.getInt("status"));
        assertTrue(rejected.getString("statusText").contains("IB_CM_REJ_CONSUMER_DEFINED"));
        assertEquals(17, only(events, "dev.panamaverbs.ConnectionDisconnected").getInt("queuePairNumber"));
    }

    @Test
    void aMoveToErrorIsAStateChangeAndAnError() throws IOException {
        List<RecordedEvent> events = record(() -> {
            FlightEvents.queuePairStateChange("rxe0", 33, "RC", "INIT", "RTR", "ibv_modify_qp");
            FlightEvents.queuePairStateChange("rxe0", 33, "RC", "RTS", "ERROR", "ibv_query_qp");
        });
        assertEquals(2, events.stream().filter(e -> e.getEventType().getName().equals("dev.panamaverbs.QueuePairStateChange")).count());
        RecordedEvent error = only(events, "dev.panamaverbs.QueuePairError");
        assertEquals(33, error.getInt("queuePairNumber"));
        assertEquals("ERROR", error.getString("state"));
        assertEquals("ibv_query_qp", error.getString("cause"));
    }

    @Test
    void asyncAndCompletionAndDispatchEventsAreReadBack() throws IOException {
        List<RecordedEvent> events = record(() -> {
            FlightEvents.asyncEvent("rxe0", "PORT_ACTIVE", "PORT", 1);
            FlightEvents.failedCompletion("rxe0", 21, 0xabcdL, "RNR_RETRY_EXC_ERR", 13, 0);
            FlightEvents.pollerDispatch("completion channel", 9, 12_000, 2);
        });
        RecordedEvent async = only(events, "dev.panamaverbs.AsyncEvent");
        assertEquals("PORT_ACTIVE", async.getString("eventType"));
        assertEquals(1, async.getInt("number"));
        RecordedEvent failed = only(events, "dev.panamaverbs.FailedCompletion");
        assertEquals("RNR_RETRY_EXC_ERR", failed.getString("status"));
        assertEquals(0xabcdL, failed.getLong("workRequestId"));
        assertEquals(21, failed.getInt("queuePairNumber"));
        RecordedEvent dispatch = only(events, "dev.panamaverbs.PollerDispatch");
        assertEquals(Duration.ofNanos(12_000), dispatch.getDuration("latency"));
    }

    @Test
    void nothingIsCommittedWithoutARecordingAndDispatchIsSampled() throws IOException {
        FlightEvents.failedCompletion("rxe0", 1, 1, "WR_FLUSH_ERR", 5, 0); // no recording: dropped
        assertFalse(FlightEvents.sampleDispatch(), "not sampled while the type is disabled");
        List<RecordedEvent> events = record(() -> {
            int sampled = 0;
            for (int i = 0; i < 4 * FlightEvents.DISPATCH_SAMPLE_INTERVAL; i++) {
                sampled += FlightEvents.sampleDispatch() ? 1 : 0;
            }
            assertEquals(4, sampled, "one dispatch in " + FlightEvents.DISPATCH_SAMPLE_INTERVAL);
        });
        assertTrue(events.stream().noneMatch(e -> e.getEventType().getName().equals("dev.panamaverbs.FailedCompletion")));
    }

    private List<RecordedEvent> record(Runnable commits) throws IOException {
        Path file = Files.createTempFile(dir, "events", ".jfr");
        try (Recording recording = new Recording()) {
            for (Class<? extends jdk.jfr.Event> type : TYPES) {
                recording.enable(EventType.getEventType(type).getName());
            }
            recording.start();
            commits.run();
            recording.stop();
            recording.dump(file);
        }
        return RecordingFile.readAllEvents(file);
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> named = events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
        assertEquals(1, named.size(), name + " in " + events);
        return named.get(0);
    }
}
