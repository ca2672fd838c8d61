package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChannelOptionsTest {
    @Test
    void theDefaultsAreA64BufferWindowOf64KiBMessages() {
        ChannelOptions defaults = ChannelOptions.defaults();
        assertEquals(64, defaults.receiveCredits());
        assertEquals(64 * 1024, defaults.maxMessageSize());
        assertEquals(64 * 1024 + 24, defaults.bufferSize());
        assertEquals(66, defaults.receiveBuffers(), "the window plus two for credit messages");
        assertEquals(66L * (64 * 1024 + 24), defaults.receivePoolBytes());
        assertEquals(16L * (64 * 1024 + 24) + 2 * 24, defaults.sendPoolBytes());
        assertEquals(Duration.ofSeconds(30), defaults.sendTimeout());
        assertEquals(6, defaults.retryCount());
        assertEquals(Duration.ZERO, defaults.receiveBusyPoll(), "receive parks at once: no core spins by default");
    }

    @Test
    void eachFieldOutOfRangeIsNamed() {
        assertNamed("receiveCredits must be in 1..16384, got 0", () -> ChannelOptions.builder().receiveCredits(0).build());
        assertNamed("receiveCredits must be in 1..16384, got 16385", () -> ChannelOptions.builder().receiveCredits(16_385).build());
        assertNamed("maxMessageSize must be in 1..16777216, got 0", () -> ChannelOptions.builder().maxMessageSize(0).build());
        assertNamed("sendBuffers must be in 1..4096, got 0", () -> ChannelOptions.builder().sendBuffers(0).build());
        assertNamed("retryCount must be in 0..7, got 8", () -> ChannelOptions.builder().retryCount(8).build());
        assertNamed("sendTimeout must not be negative", () -> ChannelOptions.builder().sendTimeout(Duration.ofMillis(-1)).build());
        assertThrows(NullPointerException.class, () -> ChannelOptions.builder().connectTimeout(null).build());
        assertNamed("receiveBusyPoll must not be negative", () -> ChannelOptions.builder().receiveBusyPoll(Duration.ofNanos(-1)).build());
        assertThrows(NullPointerException.class, () -> ChannelOptions.builder().receiveBusyPoll(null).build());
    }

    @Test
    void aPoolAboveOneGibibyteIsRefusedNamingItsFactors() {
        assertNamed("the receive pool of (receiveCredits 16384 + 2) x (maxMessageSize 16777216",
                () -> ChannelOptions.builder().receiveCredits(16_384).maxMessageSize(16 * 1024 * 1024).build());
        assertNamed("the send pool of sendBuffers 4096 x (maxMessageSize 1048576",
                () -> ChannelOptions.builder().receiveCredits(1).sendBuffers(4096).maxMessageSize(1024 * 1024).build());
        // just under: 1022 + 2 buffers of 1 MiB + 24
        ChannelOptions.builder().receiveCredits(1020).maxMessageSize(1024 * 1024).build();
    }

    @Test
    void rendezvousDefaultsToWhatDoesNotFitOneBufferAndChecksItsFields() {
        ChannelOptions defaults = ChannelOptions.defaults();
        assertEquals(defaults.maxMessageSize(), defaults.rendezvousThreshold());
        assertEquals(4096, ChannelOptions.builder().maxMessageSize(4096).build().rendezvousThreshold());
        assertEquals(1000, ChannelOptions.builder().maxMessageSize(4096).rendezvousThreshold(1000).build().rendezvousThreshold());
        assertEquals(1 << 30, defaults.maxRendezvousSize());
        assertEquals(16, defaults.rendezvousReadDepth());
        assertEquals(1 << 20, defaults.rendezvousChunkSize());
        assertNamed("rendezvousThreshold must be in 1..4096, got 4097",
                () -> ChannelOptions.builder().maxMessageSize(4096).rendezvousThreshold(4097).build());
        assertNamed("rendezvousReadDepth must be in 1..255, got 256", () -> ChannelOptions.builder().rendezvousReadDepth(256).build());
        assertNamed("rendezvousChunkSize must be in 1..1073741824, got 0", () -> ChannelOptions.builder().rendezvousChunkSize(0).build());
        assertNamed("maxRendezvousSize must be in 1..2147483647, got 0", () -> ChannelOptions.builder().maxRendezvousSize(0).build());
        assertThrows(NullPointerException.class, () -> ChannelOptions.builder().rendezvousAllocator(null).build());
        assertThrows(NullPointerException.class, () -> ChannelOptions.builder().rendezvousRegistrationBudget(null).build());
    }

    @Test
    void aZeroSendTimeoutMeansFailFast() {
        assertEquals(Duration.ZERO, ChannelOptions.builder().sendTimeout(Duration.ZERO).build().sendTimeout());
    }

    private static void assertNamed(String part, org.junit.jupiter.api.function.Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
