package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.values.AsyncEventType;
import dev.panamaverbs.values.CompletionStatus;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * What the poll path and the async-event reader record, without a device: a batch with one failed
 * entry among successes gives one {@code dev.panamaverbs.FailedCompletion}; a QP_FATAL gives an
 * {@code AsyncEvent} and a {@code QueuePairError}.
 */
class FailedCompletionRecordingTest {
    @TempDir
    Path dir;

    @Test
    void onlyTheFailedEntryIsRecorded() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Completions batch = Completions.allocate(arena, 3);
            fill(batch, 0, CompletionStatus.SUCCESS, 100, 7);
            fill(batch, 1, CompletionStatus.RNR_RETRY_EXC_ERR, 101, 7);
            fill(batch, 2, CompletionStatus.SUCCESS, 102, 7);
            List<RecordedEvent> events = record(() -> batch.recordFailures("rxe0", 3), "FailedCompletion");
            assertEquals(1, events.size(), events.toString());
            RecordedEvent failed = events.get(0);
            assertEquals("RNR_RETRY_EXC_ERR", failed.getString("status"));
            assertEquals(CompletionStatus.RNR_RETRY_EXC_ERR.value(), failed.getInt("statusValue"));
            assertEquals(101L, failed.getLong("workRequestId"));
            assertEquals(7, failed.getInt("queuePairNumber"));
            assertEquals("rxe0", failed.getString("device"));
        }
    }

    @Test
    void entriesPastTheCountAreNotRead() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Completions batch = Completions.allocate(arena, 2);
            fill(batch, 0, CompletionStatus.SUCCESS, 1, 1);
            fill(batch, 1, CompletionStatus.WR_FLUSH_ERR, 2, 1); // stale: not part of this poll
            assertEquals(0, record(() -> batch.recordFailures("rxe0", 1), "FailedCompletion").size());
        }
    }

    @Test
    void aQpFatalIsAnAsyncEventAndAQueuePairError() throws IOException {
        List<RecordedEvent> events = record(() -> AsyncEvent.record("rxe0", AsyncEventType.QP_FATAL.value(), 42),
                "AsyncEvent", "QueuePairError");
        RecordedEvent async = events.stream().filter(e -> e.getEventType().getName().equals("dev.panamaverbs.AsyncEvent"))
                .findFirst().orElseThrow();
        assertEquals("QP_FATAL", async.getString("eventType"));
        assertEquals("QUEUE_PAIR", async.getString("element"));
        assertEquals(42, async.getInt("number"));
        RecordedEvent error = events.stream().filter(e -> e.getEventType().getName().equals("dev.panamaverbs.QueuePairError"))
                .findFirst().orElseThrow();
        assertEquals(42, error.getInt("queuePairNumber"));
        assertEquals("QP_FATAL", error.getString("cause"));
    }

    private static void fill(Completions batch, int index, CompletionStatus status, long wrId, int qpn) {
        long base = index * ibv_wc.LAYOUT.byteSize();
        batch.segment().set(JAVA_INT, base + ibv_wc.status$OFFSET, status.value());
        batch.segment().set(JAVA_LONG, base + ibv_wc.wr_id$OFFSET, wrId);
        batch.segment().set(JAVA_INT, base + ibv_wc.qp_num$OFFSET, qpn);
    }

    /** Records what {@code commits} commits of the events {@code dev.panamaverbs.<names>}. */
    private List<RecordedEvent> record(Runnable commits, String... names) throws IOException {
        Path file = Files.createTempFile(dir, "events", ".jfr");
        try (Recording recording = new Recording()) {
            for (String name : names) {
                recording.enable("dev.panamaverbs." + name);
            }
            recording.start();
            commits.run();
            recording.stop();
            recording.dump(file);
        }
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().startsWith("dev.panamaverbs.")).toList();
    }
}
