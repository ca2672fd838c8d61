package dev.panamaverbs;

import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.gateway.Pointers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_sge;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The reusable native ibv_recv_wr: layout, bounds, chaining, and the shared SGE writer. */
class ReceiveWorkRequestTest {

    @Test
    void nativeRequestPointsAtItsOwnSgeArray() {
        try (Arena arena = Arena.ofConfined()) {
            ReceiveWorkRequest request = ReceiveWorkRequest.allocate(arena, 2).wrId(42);
            MemorySegment wr = request.segment();
            assertEquals(42, ibv_recv_wr.wr_id(wr));
            assertEquals(0, ibv_recv_wr.num_sge(wr));
            assertEquals(MemorySegment.NULL, ibv_recv_wr.next(wr));
            long sgList = ibv_recv_wr.sg_list(wr).address();
            assertTrue(sgList != 0);

            MemorySegment entries = Pointers.sized(sgList, 2 * ibv_sge.LAYOUT.byteSize());
            ScatterGatherEntries.write(entries, 1, 0x1000, 64, 0x77);
            assertEquals(0x1000, request.sgeAddress(1));
            assertEquals(64, request.sgeLength(1));
            assertEquals(0x77, request.sgeLkey(1));
        }
    }

    @Test
    void sgeIndexAndCountAreBounded() {
        ReceiveWorkRequest request = ReceiveWorkRequest.allocate(2);
        IllegalArgumentException index = assertThrows(IllegalArgumentException.class,
                () -> request.sge(2, null, 0, 8));
        assertEquals("ibv_post_recv: sge index must be in 0..1 (this request's maxSge 2), got 2", index.getMessage());
        assertThrows(IllegalArgumentException.class, () -> request.sge(-1, null, 0, 8));
        IllegalArgumentException region = assertThrows(IllegalArgumentException.class, () -> request.sge(0, null, 0, 8));
        assertTrue(region.getMessage().startsWith("ibv_post_recv: "), region.getMessage());

        IllegalArgumentException huge = assertThrows(IllegalArgumentException.class,
                () -> ReceiveWorkRequest.allocate(Integer.MAX_VALUE));
        assertEquals("ibv_post_recv: maxSge must be in 0..65536, got " + Integer.MAX_VALUE, huge.getMessage());
        assertEquals(SizeLimits.MAX_SGE, ReceiveWorkRequest.allocate(SizeLimits.MAX_SGE).maxSge());
        assertThrows(IllegalArgumentException.class, () -> request.sgeCount(3));
        assertThrows(IllegalArgumentException.class, () -> request.sgeCount(-1));
        request.sgeCount(2);
        assertEquals(2, request.sgeCount());
        assertEquals(2, ibv_recv_wr.num_sge(request.segment()));
        request.sgeCount(0);
        assertEquals(0, ibv_recv_wr.num_sge(request.segment()));
        assertThrows(IllegalArgumentException.class, () -> ReceiveWorkRequest.allocate(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> request.sgeAddress(2));
    }

    @Test
    void rangeMustLieInsideTheRegion() {
        String verb = ReceiveWorkRequest.VERB;
        ScatterGatherEntries.checkRange(verb, "mr", 4096, 0, 4096);
        ScatterGatherEntries.checkRange(verb, "mr", 4096, 4096, 0);
        ScatterGatherEntries.checkRange(verb, "mr", 4096, 100, 3996);
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                () -> ScatterGatherEntries.checkRange(verb, "mr", 4096, 100, 3997));
        assertEquals("ibv_post_recv: scatter/gather range [offset=100, length=3997] is outside mr (length 4096)",
                past.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ScatterGatherEntries.checkRange(verb, "mr", 4096, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> ScatterGatherEntries.checkRange(verb, "mr", 4096, 0, -1));
        assertThrows(IllegalArgumentException.class,
                () -> ScatterGatherEntries.checkRange(verb, "mr", 4096, Long.MAX_VALUE, 10));
    }

    @Test
    void chainingLinksNativeNextAndRefusesLoops() {
        ChainOfThree<ReceiveWorkRequest> chain = ChainOfThree.of(id -> ReceiveWorkRequest.allocate(1).wrId(id),
                ReceiveWorkRequest::next);
        assertSame(chain.second(), chain.first().next());
        assertEquals(chain.second().segment().address(), ibv_recv_wr.next(chain.first().segment()).address());

        IllegalArgumentException loop = assertThrows(IllegalArgumentException.class, () -> chain.third().next(chain.first()));
        assertTrue(loop.getMessage().contains("loop"), loop.getMessage());
        assertThrows(IllegalArgumentException.class, () -> chain.first().next(chain.first()));
        assertNull(chain.third().next(), "a refused link leaves the chain unchanged");

        chain.first().next(null);
        assertNull(chain.first().next());
        assertEquals(MemorySegment.NULL, ibv_recv_wr.next(chain.first().segment()));
    }

    @Test
    void badRequestIsFoundInTheChain() {
        BadRequestCheck.assertFoundInTheChain(id -> ReceiveWorkRequest.allocate(1).wrId(id), ReceiveWorkRequest::next,
                ReceiveWorkRequest::describeBadRequest, ReceiveWorkRequest::segment);
    }
}
