package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.IBV_FLOW_ATTR_ALL_DEFAULT;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_FLOW_ATTR_MC_DEFAULT;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_FLOW_ATTR_NORMAL;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_FLOW_ATTR_SNIFFER;

/** What a {@link dev.panamaverbs.FlowRule} steers (C {@code enum ibv_flow_attr_type}). */
public enum FlowType implements NativeEnum {
    /** {@code IBV_FLOW_ATTR_NORMAL}: packets matching the rule's specs. */
    NORMAL(IBV_FLOW_ATTR_NORMAL),
    /** {@code IBV_FLOW_ATTR_ALL_DEFAULT}: unicast packets no other rule takes. */
    ALL_DEFAULT(IBV_FLOW_ATTR_ALL_DEFAULT),
    /** {@code IBV_FLOW_ATTR_MC_DEFAULT}: multicast packets no other rule takes. */
    MC_DEFAULT(IBV_FLOW_ATTR_MC_DEFAULT),
    /** {@code IBV_FLOW_ATTR_SNIFFER}: a copy of every packet of the port. */
    SNIFFER(IBV_FLOW_ATTR_SNIFFER);

    private final int value;

    FlowType(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
