package dev.panamaverbs;

import dev.panamaverbs.loader.internal.LibIbverbs;

import java.util.List;

/**
 * Optional libibverbs functions, newer than the required set, that a public method calls. Each
 * capability is present when every one of its symbols resolved at its pinned version; its
 * absence never makes the library unavailable, it only makes the methods that need it throw
 * {@link VerbsUnsupportedException}. Which functions are optional is not kept here: the
 * generator marks each exported function required or not by its symbol version. The optional
 * functions no public method calls ({@code ibv_reg_mr_iova}, {@code ibv_import_dm},
 * {@code ibv_unimport_dm}) have no capability; the
 * verb coverage table ({@code docs/verb-coverage.md}) says why, and a unit test checks that
 * every optional function is either in exactly one capability, whose functions the table shows
 * public, or not offered there.
 */
public enum Capability {
    /** {@code ibv_get_pkey_index} (IBVERBS_1.5): P_Key value to table index, {@link Context#pkeyIndex}. */
    GET_PKEY_INDEX("ibv_get_pkey_index"),
    /**
     * {@code ibv_qp_to_qp_ex} (IBVERBS_1.6): the {@code ibv_wr_*} extended post API, {@link SendBatch}
     * (on a queue pair created with {@link QueuePairOptions.Builder#extendedSendOperations}).
     */
    QP_EX("ibv_qp_to_qp_ex"),
    /**
     * {@code ibv_reg_mr_iova2} (IBVERBS_1.8): registration at a chosen I/O virtual address
     * ({@link ProtectionDomain#register(java.lang.foreign.MemorySegment, java.util.Set, long)}) and
     * with the optional access flags.
     */
    REG_MR_IOVA2("ibv_reg_mr_iova2"),
    /** {@code ibv_get_device_index} (IBVERBS_1.9): the kernel's device index, {@link Device#kernelIndex}. */
    GET_DEVICE_INDEX("ibv_get_device_index"),
    /**
     * {@code ibv_import_*}/{@code ibv_unimport_*} (IBVERBS_1.10): a context, PDs and MRs shared
     * through a command fd, {@link Context#importFrom}.
     */
    IMPORT("ibv_import_device", "ibv_import_pd", "ibv_unimport_pd", "ibv_import_mr", "ibv_unimport_mr"),
    /** {@code ibv_query_ece}/{@code ibv_set_ece} (IBVERBS_1.10): {@link QueuePair#queryEce}, {@link QueuePair#setEce}. */
    ECE("ibv_query_ece", "ibv_set_ece"),
    /** {@code _ibv_query_gid_ex} (IBVERBS_1.11): one GID entry with its type and netdev, {@link Context#queryGid}. */
    QUERY_GID_EX("_ibv_query_gid_ex"),
    /** {@code _ibv_query_gid_table} (IBVERBS_1.11): the whole GID table at once, {@link Context#gidTable}. */
    QUERY_GID_TABLE("_ibv_query_gid_table"),
    /** {@code ibv_reg_dmabuf_mr} (IBVERBS_1.12): register a dma-buf (GPU memory), {@link ProtectionDomain#registerDmabuf}. */
    REG_DMABUF_MR("ibv_reg_dmabuf_mr"),
    /** {@code ibv_is_fork_initialized} (IBVERBS_1.13): whether fork protection is on, {@link Verbs#forkStatus()}. */
    IS_FORK_INITIALIZED("ibv_is_fork_initialized"),
    /** {@code ibv_query_qp_data_in_order} (IBVERBS_1.14): whether data lands in order, {@link QueuePair#dataInOrder}. */
    QUERY_QP_DATA_IN_ORDER("ibv_query_qp_data_in_order");

    private final List<String> symbols;

    Capability(String... symbols) {
        this.symbols = List.of(symbols);
    }

    /**
     * The exported functions this capability needs, all of them.
     *
     * @return the exported functions this capability needs, all of them
     */
    public List<String> symbols() {
        return symbols;
    }

    /**
     * Whether the loaded libibverbs exports every function of this capability, each at its
     * pinned version; false when libibverbs is unavailable.
     *
     * @return whether the loaded libibverbs exports every function of this capability, each at its pinned version
     */
    public boolean isPresent() {
        return symbols.stream().allMatch(LibIbverbs.LIBRARY::has);
    }

    /**
     * Returns when {@link #isPresent()}; else throws for {@code verb}, naming the library loaded
     * and the functions it lacks.
     *
     * @throws VerbsUnsupportedException when the capability is absent
     */
    void require(String verb) {
        if (!isPresent()) {
            throw new VerbsUnsupportedException(verb, "the loaded libibverbs (" + LibIbverbs.LIBRARY.libraryPath()
                    + ") does not export " + String.join(", ", symbols) + " (Capability." + name() + ")");
        }
    }

    /**
     * The capability that provides {@code symbol}, or null when no capability lists it.
     *
     * @param symbol the symbol name
     * @return the capability that provides {@code symbol}, or null when no capability lists it
     */
    public static Capability providing(String symbol) {
        for (Capability capability : values()) {
            if (capability.symbols.contains(symbol)) {
                return capability;
            }
        }
        return null;
    }
}
