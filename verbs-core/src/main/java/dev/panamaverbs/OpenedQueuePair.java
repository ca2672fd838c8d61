package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_qp_open_attr;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * An XRC receive queue pair opened by number in a shared {@link XrcDomain}
 * ({@code ibv_open_qp}): a reference to a queue pair another process created, keeping it alive
 * while open. {@link #close()} drops the reference ({@code ibv_destroy_qp}).
 */
public final class OpenedQueuePair extends ResourceCreation.FreedBy {
    private final int number;

    /** Closing it ({@code ibv_destroy_qp}) drops this process's reference. */
    private OpenedQueuePair(XrcDomain domain, MemorySegment handle, int number) {
        super("OpenedQueuePair", handle, domain, "ibv_destroy_qp", IbverbsCalls::ibv_destroy_qp);
        this.number = number;
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
        return whileOpen(number);
    }

    /**
     * The XRC domain it was opened in.
     *
     * @return the domain
     */
    public XrcDomain xrcDomain() {
        return whileOpen(parent());
    }

    /** {@code ibv_open_qp} with the number, the domain and the type XRC_RECV. */
    static OpenedQueuePair open(XrcDomain domain, int qpNumber) {
        String verb = "ibv_open_qp";
        if (qpNumber < 0 || qpNumber > 0xFFFFFF) {
            throw new IllegalArgumentException(verb + ": qp_num is 24 bits, got " + qpNumber);
        }
        VerbsResource context = domain.context(); // held and passed as a handle only
        // The domain is held too: its handle goes into the attributes.
        return ResourceCreation.create(verb, ibv_qp.SIZE, List.of(context, domain), arena -> {
            MemorySegment attr = arena.allocate(ibv_qp_open_attr.LAYOUT);
            ibv_qp_open_attr.comp_mask(attr, VerbsConstants.IBV_QP_OPEN_ATTR_NUM | VerbsConstants.IBV_QP_OPEN_ATTR_XRCD
                    | VerbsConstants.IBV_QP_OPEN_ATTR_TYPE);
            ibv_qp_open_attr.qp_num(attr, qpNumber);
            ibv_qp_open_attr.xrcd(attr, domain.handleSegment());
            ibv_qp_open_attr.qp_type(attr, QueuePairType.XRC_RECV.value());
            return attr;
        }, (state, attr) -> IbverbsCalls.ibv_open_qp(state, context.handleAddress(), attr),
                (qp, attr) -> new OpenedQueuePair(domain, qp, qpNumber));
    }
}
