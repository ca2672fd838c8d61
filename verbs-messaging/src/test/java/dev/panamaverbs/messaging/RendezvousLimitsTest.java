package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RendezvousLimitsTest {
    @Test
    void aChunkIsNeverLargerThanThePortsMaxMessageSize() {
        assertEquals(1 << 20, RendezvousLimits.chunkSize(1 << 20, 1L << 31));
        assertEquals(4096, RendezvousLimits.chunkSize(1 << 20, 4096));
        assertEquals(1, RendezvousLimits.chunkSize(1 << 20, 0));
    }

    @Test
    void chunksCoverTheMessageExactlyTheLastOneShorter() {
        int chunk = 1 << 20;
        long length = (3L << 20) + 5;
        assertEquals(4, RendezvousLimits.chunks(length, chunk));
        long total = 0;
        for (int i = 0; i < 4; i++) {
            total += RendezvousLimits.chunkLength(length, chunk, i);
        }
        assertEquals(length, total);
        assertEquals(5, RendezvousLimits.chunkLength(length, chunk, 3));
        assertEquals(1, RendezvousLimits.chunks(1, chunk));
        assertEquals(1, RendezvousLimits.chunks(chunk, chunk));
        assertEquals(2, RendezvousLimits.chunks(chunk + 1L, chunk));
        assertEquals(64, RendezvousLimits.chunks(64L << 20, chunk));
        assertEquals(2048, RendezvousLimits.chunks(Integer.MAX_VALUE, chunk));
    }

    @Test
    void theReadDepthIsTheSmallestOfWhatWasAskedTheDeviceAndThePeer() {
        assertEquals(16, RendezvousLimits.requestedDepth(16, 128, 128));
        assertEquals(4, RendezvousLimits.requestedDepth(16, 4, 128));
        assertEquals(8, RendezvousLimits.requestedDepth(16, 128, 8));
        assertEquals(1, RendezvousLimits.requestedDepth(16, 0, 0));
        assertEquals(255, RendezvousLimits.requestedDepth(255, 1000, 1000));
        assertEquals(16, RendezvousLimits.negotiatedDepth(16, 16));
        assertEquals(2, RendezvousLimits.negotiatedDepth(16, 2));
        assertEquals(1, RendezvousLimits.negotiatedDepth(16, 0));
    }
}
