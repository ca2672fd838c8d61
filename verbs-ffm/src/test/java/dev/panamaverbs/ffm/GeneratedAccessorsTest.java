package dev.panamaverbs.ffm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated accessors, constants and function lists behave as the contract says. */
class GeneratedAccessorsTest {

    @Test
    void nestedAndFlattenedAccessorsWriteWhereTheOffsetsSay() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment wr = ibv_send_wr.allocate(arena);
            ibv_send_wr.wr_id(wr, 0x1122334455667788L);
            ibv_send_wr.imm_data(wr, 0xCAFE);
            MemorySegment rdma = ibv_send_wr.wr.rdma(ibv_send_wr.wr(wr));
            ibv_send_wr.wr.rdma.remote_addr(rdma, 42L);
            ibv_send_wr.wr.rdma.rkey(rdma, 7);

            assertEquals(0x1122334455667788L, wr.get(ValueLayout.JAVA_LONG, ibv_send_wr.wr_id$OFFSET));
            // imm_data and invalidate_rkey share an anonymous union.
            assertEquals(ibv_send_wr.imm_data$OFFSET, ibv_send_wr.invalidate_rkey$OFFSET);
            assertEquals(0xCAFE, ibv_send_wr.invalidate_rkey(wr));
            long addr = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.rdma$OFFSET + ibv_send_wr.wr.rdma.remote_addr$OFFSET;
            assertEquals(42L, wr.get(ValueLayout.JAVA_LONG, addr));
            long rkey = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.rdma$OFFSET + ibv_send_wr.wr.rdma.rkey$OFFSET;
            assertEquals(7, wr.get(ValueLayout.JAVA_INT, rkey));
        }
    }

    @Test
    void functionPointerFieldsCarryDescriptors() {
        assertEquals(3, ibv_context_ops.post_send$DESC.argumentLayouts().size());
        assertEquals(ValueLayout.JAVA_INT, ibv_context_ops.post_send$DESC.returnLayout().orElseThrow());
        assertEquals(3, ibv_context_ops.poll_cq$DESC.argumentLayouts().size());
    }

    @Test
    void exportedAndInlineListsSeparateSymbolsFromHeaderOnlyCode() {
        Set<String> exported = VerbsFunctions.EXPORTED.stream().map(ExportedFunction::name).collect(Collectors.toSet());
        Set<String> inline = VerbsFunctions.INLINE.stream().map(InlineFunction::name).collect(Collectors.toSet());
        assertTrue(exported.containsAll(Set.of("ibv_get_device_list", "ibv_open_device", "ibv_reg_mr",
                "ibv_query_port", "ibv_create_qp", "ibv_modify_qp")));
        // static inline in verbs.h: never symbols.
        assertFalse(exported.contains("ibv_post_send"));
        assertFalse(exported.contains("ibv_poll_cq"));
        assertTrue(inline.containsAll(Set.of("ibv_post_send", "ibv_poll_cq", "ibv_req_notify_cq", "verbs_get_ctx_op")));
        // Macros over exported functions of the same name are in both lists.
        assertTrue(VerbsFunctions.INLINE.contains(
                new InlineFunction("ibv_reg_mr", InlineFunction.Kind.FUNCTION_LIKE_MACRO)));
        assertTrue(VerbsFunctions.INLINE.contains(
                new InlineFunction("ibv_query_port", InlineFunction.Kind.FUNCTION_LIKE_MACRO)));
        for (ExportedFunction f : VerbsFunctions.EXPORTED) {
            assertTrue(f.version().startsWith("IBVERBS_"), f.name() + " has version " + f.version());
        }
    }

    @Test
    void versionsAreTheDefaultSymbolVersions() {
        assertEquals("IBVERBS_1.1", VerbsFunctions.ibv_open_device$VERSION);
        assertEquals("IBVERBS_1.8", VerbsFunctions.ibv_reg_mr_iova2$VERSION);
        assertEquals("IBVERBS_1.12", VerbsFunctions.ibv_reg_dmabuf_mr$VERSION);
        assertEquals("IBVERBS_1.10", VerbsFunctions.ibv_query_ece$VERSION);
    }

    @Test
    void constantsKeepCValues() {
        assertEquals(2, VerbsConstants.IBV_ACCESS_REMOTE_WRITE);
        assertEquals(1L << 31, VerbsConstants.IBV_RX_HASH_INNER); // does not fit an int: long
        assertEquals(1L << 34, VerbsConstants.IBV_DEVICE_RAW_SCATTER_FCS); // a #define
        assertEquals(0, VerbsConstants.IBV_QPS_RESET);
    }
}
