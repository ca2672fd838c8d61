package dev.panamaverbs.loader;

import java.util.List;

/**
 * The one list of exported functions libibverbs must offer, at their pinned versions, for the
 * library to count as available. Every name here is exported by rdma-core since the
 * IBVERBS_1.0/1.1 era, so no supported installation lacks one; newer functions belong to
 * {@link Capability} instead. Never list a {@code static inline} verb here (ibv_post_send,
 * ibv_poll_cq...): libibverbs does not export them, so such a loader could never succeed.
 */
final class RequiredSymbols {
    private RequiredSymbols() {}

    static final List<String> NAMES = List.of(
            // Device discovery: Verbs.devices() lists, names and identifies devices.
            "ibv_get_device_list",
            "ibv_free_device_list",
            "ibv_get_device_name",
            "ibv_get_device_guid",
            // Device open/close: every other object hangs off an ibv_context.
            "ibv_open_device",
            "ibv_close_device",
            // Queries: device limits, port state (the compat export, see ExtendedOps.queryPort),
            // GID and P_Key tables for addressing.
            "ibv_query_device",
            "ibv_query_port",
            "ibv_query_gid",
            "ibv_query_pkey",
            // Protection domains.
            "ibv_alloc_pd",
            "ibv_dealloc_pd",
            // Memory regions: ibv_reg_mr is also what the ibv_reg_mr macro calls without optional flags.
            "ibv_reg_mr",
            "ibv_rereg_mr",
            "ibv_dereg_mr",
            // Completion channels and queues, and the event-driven completion path.
            "ibv_create_comp_channel",
            "ibv_destroy_comp_channel",
            "ibv_create_cq",
            "ibv_resize_cq",
            "ibv_destroy_cq",
            "ibv_get_cq_event",
            "ibv_ack_cq_events",
            // Queue pairs: creation (also ibv_create_qp_ex's fallback), the state machine, teardown.
            "ibv_create_qp",
            "ibv_modify_qp",
            "ibv_query_qp",
            "ibv_destroy_qp",
            // Shared receive queues.
            "ibv_create_srq",
            "ibv_modify_srq",
            "ibv_query_srq",
            "ibv_destroy_srq",
            // Address handles for UD, including the ones built from a received completion.
            "ibv_create_ah",
            "ibv_destroy_ah",
            "ibv_init_ah_from_wc",
            "ibv_create_ah_from_wc",
            // Asynchronous events (port up/down, QP fatal...).
            "ibv_get_async_event",
            "ibv_ack_async_event",
            // Multicast groups for UD QPs.
            "ibv_attach_mcast",
            "ibv_detach_mcast",
            // fork() safety: registered memory must not be copied-on-write under the NIC.
            "ibv_fork_init",
            // Human-readable texts for enums in messages and toString().
            "ibv_wc_status_str",
            "ibv_event_type_str",
            "ibv_port_state_str",
            "ibv_node_type_str",
            // Rate conversions for ibv_ah_attr.static_rate.
            "ibv_rate_to_mult",
            "mult_to_ibv_rate",
            "ibv_rate_to_mbps",
            "mbps_to_ibv_rate");

    /** The required functions with their versions and descriptors from the generated layer. */
    static List<SymbolSpec> specs() {
        return NAMES.stream().map(ExportedFunctions::spec).toList();
    }
}
