package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Which receive completion frees a type 2 window the peer invalidated ({@link MemoryWindow#invalidatedByPeer}). */
class WindowInvalidationTest {
    private static final int RKEY = 0x0800_0ADE;

    private static String problem(int status, CompletionOpcode opcode, int flags, int rkey) {
        try (Arena arena = Arena.ofConfined()) {
            Completions batch = Completions.allocate(arena, 1);
            MemorySegment wc = batch.segment().asSlice(0, ibv_wc.LAYOUT.byteSize());
            ibv_wc.status(wc, status);
            ibv_wc.opcode(wc, opcode.value());
            ibv_wc.wc_flags(wc, flags);
            ibv_wc.invalidated_rkey(wc, rkey);
            return MemoryWindow.invalidationProblem(batch, 0, RKEY);
        }
    }

    @Test
    void aSuccessfulReceiveWithTheInvalidationFlagAndThisRkeyFreesTheWindow() {
        int success = CompletionStatus.SUCCESS.value();
        assertNull(problem(success, CompletionOpcode.RECV, CompletionFlag.WITH_INV.bit(), RKEY));
        // rxe: GRH | the kernel's IB_WC_WITH_INVALIDATE (1 << 2), as a SEND_WITH_INV arrived there.
        assertNull(problem(success, CompletionOpcode.RECV, 5, RKEY));
    }

    @Test
    void anythingElseIsRefusedWithItsReason() {
        int success = CompletionStatus.SUCCESS.value();
        assertTrue(problem(CompletionStatus.WR_FLUSH_ERR.value(), CompletionOpcode.RECV, 5, RKEY).startsWith("it failed"));
        assertTrue(problem(success, CompletionOpcode.BIND_MW, 5, RKEY).startsWith("it is not a receive"));
        assertTrue(problem(success, CompletionOpcode.RECV, 1, RKEY).startsWith("it has no IBV_WC_WITH_INV flag"));
        assertTrue(problem(success, CompletionOpcode.RECV, 0, RKEY).startsWith("it has no IBV_WC_WITH_INV flag"));
        // With immediate data the shared slot is the immediate, whatever bit 2 says.
        assertTrue(problem(success, CompletionOpcode.RECV, 5 | CompletionFlag.WITH_IMM.bit(), RKEY)
                .startsWith("it has no IBV_WC_WITH_INV flag"));
        assertTrue(problem(success, CompletionOpcode.RECV, CompletionFlag.WITH_INV.bit(), RKEY + 1)
                .startsWith("it invalidated rkey 0x8000adf, not 0x8000ade"));
    }
}
