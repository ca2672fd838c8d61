package dev.panamaverbs.values;

/**
 * A {@link NativeEnum} that libibverbs names in its own words: one of its {@code ibv_*_str} functions
 * takes the value. {@link AsyncEventType} ({@code ibv_event_type_str}), {@link CompletionStatus}
 * ({@code ibv_wc_status_str}), {@link NodeType} ({@code ibv_node_type_str}) and {@link PortState}
 * ({@code ibv_port_state_str}) are the four; the lookup table of each finds the function by the C
 * enum's name, and the one {@link #describe()} serves them all.
 */
public interface DescribedEnum extends NativeEnum {
    /**
     * libibverbs' own text for this value (its {@code ibv_*_str} function), e.g. "local length error" for
     * {@link CompletionStatus#LOC_LEN_ERR}: the words {@code ibv_devinfo} and other rdma-core tools print,
     * where {@code name()} is the Java constant.
     *
     * @return the text libibverbs gives this value
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable
     */
    default String describe() {
        return Table.describe(this);
    }
}
