package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** A port's link layer (C {@code IBV_LINK_LAYER_*}, {@code ibv_port_attr.link_layer}). */
public enum LinkLayer implements NativeEnum {
    /** {@code IBV_LINK_LAYER_UNSPECIFIED}: old providers, treated as InfiniBand by rdma-core. */
    UNSPECIFIED(IBV_LINK_LAYER_UNSPECIFIED),
    /** {@code IBV_LINK_LAYER_INFINIBAND}. */
    INFINIBAND(IBV_LINK_LAYER_INFINIBAND),
    /** {@code IBV_LINK_LAYER_ETHERNET}: RoCE (including SoftRoCE) and iWARP. */
    ETHERNET(IBV_LINK_LAYER_ETHERNET);

    private static final Table<LinkLayer> TABLE = new Table<>(LinkLayer.class, "link_layer");
    private final int value;

    LinkLayer(int value) {
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
    public static LinkLayer of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static LinkLayer orNull(int value) {
        return TABLE.orNull(value);
    }
}
