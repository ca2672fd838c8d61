package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_qp_open_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An XRC receive queue pair opened by number in a shared {@link XrcDomain}
 * ({@code ibv_open_qp}): a reference to a queue pair another process created, keeping it alive
 * while open. {@link #close()} drops the reference ({@code ibv_destroy_qp}).
 */
public final class OpenedQueuePair extends VerbsResource {
    private final XrcDomain domain;
    private final int number;

    private OpenedQueuePair(XrcDomain domain, MemorySegment handle, int number) {
        super("OpenedQueuePair", handle, domain);
        this.domain = domain;
        this.number = number;
    }

    /** {@code ibv_open_qp} with the number, the domain and the type XRC_RECV. */
    static OpenedQueuePair open(XrcDomain domain, int qpNumber) {
        String verb = "ibv_open_qp";
        if (qpNumber < 0 || qpNumber > 0xFFFFFF) {
            throw new IllegalArgumentException(verb + ": qp_num is 24 bits, got " + qpNumber);
        }
        Context context = domain.context();
        context.acquire();
        domain.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_open_attr.LAYOUT);
            ibv_qp_open_attr.comp_mask(attr, VerbsConstants.IBV_QP_OPEN_ATTR_NUM | VerbsConstants.IBV_QP_OPEN_ATTR_XRCD
                    | VerbsConstants.IBV_QP_OPEN_ATTR_TYPE);
            ibv_qp_open_attr.qp_num(attr, qpNumber);
            ibv_qp_open_attr.xrcd(attr, domain.handleSegment());
            ibv_qp_open_attr.qp_type(attr, QueuePairType.XRC_RECV.value());
            MemorySegment state = CallState.allocate(arena);
            long qp = IbverbsCalls.ibv_open_qp(state, context.handleAddress(), attr.address());
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(qp), CallState.errno(state));
            OpenedQueuePair opened = new OpenedQueuePair(domain, Pointers.sized(qp, ibv_qp.SIZE), qpNumber);
            opened.register();
            return opened;
        } finally {
            domain.release();
            context.release();
        }
    }

    /** {@code ibv_destroy_qp}: drops this process's reference. */
    @Override
    protected void destroy() {
        NativeCalls.destroy("ibv_destroy_qp", IbverbsCalls::ibv_destroy_qp, handleSegment());
    }

    @Override
    protected String describe() {
        return "qp_num=" + number;
    }

    /**
     * The queue pair's number.
     *
     * @return the number
     */
    public int number() {
        requireOpen(this);
        return number;
    }

    /**
     * The XRC domain it was opened in.
     *
     * @return the domain
     */
    public XrcDomain xrcDomain() {
        requireOpen(this);
        return domain;
    }
}
