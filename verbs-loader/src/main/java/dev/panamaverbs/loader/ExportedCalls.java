package dev.panamaverbs.loader;

import java.lang.invoke.MethodHandle;

/**
 * Handles for the exported functions the loader's own inline-verb reimplementations fall back
 * on. A holder: touch it only after {@link LibIbverbs#ensureAvailable()} returned, so its
 * initialisation cannot fail. Pointers are raw {@code long}s; every handle captures errno.
 * Optional ones are null when their {@link Capability} is absent.
 */
final class ExportedCalls {
    /** The compat {@code ibv_query_port}: fills only the legacy prefix of {@code ibv_port_attr}. */
    static final MethodHandle QUERY_PORT = required("ibv_query_port");
    static final MethodHandle CREATE_QP = required("ibv_create_qp");
    static final MethodHandle QUERY_DEVICE = required("ibv_query_device");
    static final MethodHandle REG_MR = required("ibv_reg_mr");
    static final MethodHandle REG_MR_IOVA = optional("ibv_reg_mr_iova");
    static final MethodHandle REG_MR_IOVA2 = optional("ibv_reg_mr_iova2");
    static final MethodHandle QUERY_GID_EX = optional("_ibv_query_gid_ex");
    static final MethodHandle QUERY_GID_TABLE = optional("_ibv_query_gid_table");
    static final MethodHandle QP_TO_QP_EX = optional("ibv_qp_to_qp_ex");

    private ExportedCalls() {}

    private static MethodHandle required(String name) {
        return Natives.downcall(name, Natives.withRawAddresses(Natives.descriptor(name)));
    }

    private static MethodHandle optional(String name) {
        return Natives.optionalDowncall(name, Natives.withRawAddresses(Natives.descriptor(name))).orElse(null);
    }
}
