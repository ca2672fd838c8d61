package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_counter_attach_attr;
import dev.panamaverbs.ffm.ibv_counters_init_attr;
import dev.panamaverbs.ffm.ibv_flow;
import dev.panamaverbs.ffm.ibv_flow_attr;
import dev.panamaverbs.ffm.ibv_flow_spec_counter_action;
import dev.panamaverbs.ffm.ibv_flow_spec_eth;
import dev.panamaverbs.ffm.ibv_flow_spec_ipv4;
import dev.panamaverbs.ffm.ibv_flow_spec_tcp_udp;
import dev.panamaverbs.ffm.invoke.CallState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Flow steering and counters against the fake provider: the flow attribute and its specs arrive
 * where gcc lays them out (the fake walks the specs by their size fields), counters are created,
 * attached, read and destroyed, and EOPNOTSUPP comes back without a call where the op is missing.
 */
class SteeringOpsTest extends ProcessFakeProviderTest {
    @Test
    void theGeneratedLayoutsMatchGcc() {
        assertLayouts(50,
                ibv_flow_attr.SIZE,
                ibv_flow_attr.port$OFFSET,
                ibv_flow_attr.flags$OFFSET,
                ibv_flow_spec_eth.SIZE,
                ibv_flow_spec_eth.mask$OFFSET,
                ibv_flow_spec_ipv4.SIZE,
                ibv_flow_spec_ipv4.mask$OFFSET,
                ibv_flow_spec_tcp_udp.SIZE,
                ibv_flow_spec_counter_action.SIZE,
                ibv_flow_spec_counter_action.counters$OFFSET,
                ibv_counter_attach_attr.SIZE,
                ibv_flow.context$OFFSET,
                verbs_context.ibv_create_flow$OFFSET,
                verbs_context.read_counters$OFFSET,
                dev.panamaverbs.ffm.ibv_flow_spec_action_tag.SIZE,
                dev.panamaverbs.ffm.ibv_flow_spec_action_tag.tag_id$OFFSET);
    }

    @Test
    void aFlowWithItsSpecsReachesTheProvider() {
        long qp = fake.qp(context);
        long size = ibv_flow_attr.SIZE + ibv_flow_spec_ipv4.SIZE + ibv_flow_spec_tcp_udp.SIZE;
        MemorySegment flow = arena.allocate(size, 8);
        ibv_flow_attr.type(flow, VerbsConstants.IBV_FLOW_ATTR_NORMAL);
        ibv_flow_attr.size(flow, (short) size);
        ibv_flow_attr.priority(flow, (short) 3);
        ibv_flow_attr.num_of_specs(flow, (byte) 2);
        ibv_flow_attr.port(flow, (byte) 1);
        MemorySegment ipv4 = flow.asSlice(ibv_flow_attr.SIZE, ibv_flow_spec_ipv4.SIZE);
        ibv_flow_spec_ipv4.type(ipv4, VerbsConstants.IBV_FLOW_SPEC_IPV4);
        ibv_flow_spec_ipv4.size(ipv4, (short) ibv_flow_spec_ipv4.SIZE);
        ipv4.set(ValueLayout.JAVA_INT, ibv_flow_spec_ipv4.val$OFFSET + 4, 0x0A0B0C0D);
        MemorySegment udp = flow.asSlice(ibv_flow_attr.SIZE + ibv_flow_spec_ipv4.SIZE, ibv_flow_spec_tcp_udp.SIZE);
        ibv_flow_spec_tcp_udp.type(udp, VerbsConstants.IBV_FLOW_SPEC_UDP);
        ibv_flow_spec_tcp_udp.size(udp, (short) ibv_flow_spec_tcp_udp.SIZE);
        long created = IbverbsCalls.ibv_create_flow(state, qp, flow.address());
        assertLastCall("create_flow", qp, flow.address(), 0, VerbsConstants.IBV_FLOW_ATTR_NORMAL, size, 3, 2, 1L << 32);
        assertEquals(VerbsConstants.IBV_FLOW_SPEC_IPV4, fake.flowSpec(0, 0));
        assertEquals(ibv_flow_spec_ipv4.SIZE, fake.flowSpec(0, 1));
        assertEquals(VerbsConstants.IBV_FLOW_SPEC_UDP, fake.flowSpec(1, 0), "the second spec found by the first's size");
        assertEquals(context, Memory.readLong(created + ibv_flow.context$OFFSET));
        assertEquals(0, IbverbsCalls.ibv_destroy_flow(created));
        assertLastCall("destroy_flow", created);

        assertUnsupportedInErrno(state, () -> IbverbsCalls.ibv_create_flow(state, fake.qp(fake.contextWithout(verbs_context.ibv_create_flow$OFFSET)), flow.address()));
    }

    @Test
    void countersAreCreatedAttachedReadAndDestroyed() {
        MemorySegment init = arena.allocate(ibv_counters_init_attr.LAYOUT);
        long counters = IbverbsCalls.ibv_create_counters(state, context, init.address());
        assertLastCall("create_counters", context, init.address(), 0);

        MemorySegment attach = arena.allocate(ibv_counter_attach_attr.LAYOUT);
        ibv_counter_attach_attr.counter_desc(attach, VerbsConstants.IBV_COUNTER_BYTES);
        ibv_counter_attach_attr.index(attach, 1);
        assertEquals(0, IbverbsCalls.ibv_attach_counters_point_flow(counters, attach.address(), 0));
        assertLastCall("attach_counters_point_flow", counters, attach.address(), VerbsConstants.IBV_COUNTER_BYTES, 1, 0, 0);

        MemorySegment values = arena.allocate(ValueLayout.JAVA_LONG, 2);
        assertEquals(0, IbverbsCalls.ibv_read_counters(counters, values.address(), 2,
                VerbsConstants.IBV_READ_COUNTERS_ATTR_PREFER_CACHED));
        assertLastCall("read_counters", counters, values.address(), 2, 1);
        assertArrayEquals(new long[] {0x1_0000_0000L, 0x2_0000_0001L}, values.toArray(ValueLayout.JAVA_LONG));

        assertEquals(0, IbverbsCalls.ibv_destroy_counters(counters));
        assertEquals("destroy_counters", fake.lastOp());
        assertProviderErrorPassesThrough(state, TestErrno.EINVAL, () -> IbverbsCalls.ibv_attach_counters_point_flow(counters, attach.address(), 0),
                () -> IbverbsCalls.ibv_create_counters(state, context, init.address()));

        assertUnsupportedInErrno(state, () -> IbverbsCalls.ibv_create_counters(state, fake.contextWithout(verbs_context.create_counters$OFFSET), init.address()));
    }
}
