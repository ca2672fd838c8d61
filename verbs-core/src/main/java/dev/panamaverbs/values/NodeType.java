package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/**
 * Device node type (C {@code enum ibv_node_type}). {@link #describe()} gives libibverbs' own text for a value
 * ({@code ibv_node_type_str}), e.g. "InfiniBand channel adapter" for {@link #CA}.
 */
public enum NodeType implements DescribedEnum {
    /** {@code IBV_NODE_UNKNOWN}. */
    UNKNOWN(IBV_NODE_UNKNOWN),
    /** {@code IBV_NODE_CA}. */
    CA(IBV_NODE_CA),
    /** {@code IBV_NODE_SWITCH}. */
    SWITCH(IBV_NODE_SWITCH),
    /** {@code IBV_NODE_ROUTER}. */
    ROUTER(IBV_NODE_ROUTER),
    /** {@code IBV_NODE_RNIC}. */
    RNIC(IBV_NODE_RNIC),
    /** {@code IBV_NODE_USNIC}. */
    USNIC(IBV_NODE_USNIC),
    /** {@code IBV_NODE_USNIC_UDP}. */
    USNIC_UDP(IBV_NODE_USNIC_UDP),
    /** {@code IBV_NODE_UNSPECIFIED}. */
    UNSPECIFIED(IBV_NODE_UNSPECIFIED);

    private static final Table<NodeType> TABLE = new Table<>(NodeType.class, "ibv_node_type");
    private final int value;

    NodeType(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * The constant for a C value; an unknown value is an {@link IllegalArgumentException}.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value
     */
    public static NodeType of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static NodeType orNull(int value) {
        return TABLE.orNull(value);
    }
}
