package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.QueuePairAttributes;
import dev.panamaverbs.values.QueuePairCapabilities;
import dev.panamaverbs.gateway.Pointers;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_QP_INIT_ATTR_PD;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;

import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_qp_cap;
import dev.panamaverbs.ffm.ibv_qp_init_attr;
import dev.panamaverbs.ffm.ibv_qp_init_attr_ex;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.ExtendedOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The create-time half of a queue pair: checks {@link QueuePairOptions} against the device
 * and the resources involved, fills {@code struct ibv_qp_init_attr} /
 * {@code struct ibv_qp_init_attr_ex}, and calls {@code ibv_create_qp} / {@code ibv_create_qp_ex}.
 * The protection domain is taken as the resource it is (its handle, its identity) with its
 * context; the domain's side builds the queue pair over what the verb made ({@link Wrap}).
 */
final class QueuePairCreation {
    private QueuePairCreation() {}

    /**
     * Builds the queue pair over the handle the verb returned (sized to {@code ibv_qp}) and the
     * capabilities the provider granted; called while every resource involved is still held.
     */
    @FunctionalInterface
    interface Wrap<Q extends VerbsResource> {
        Q over(MemorySegment handle, QueuePairCapabilities granted, boolean extended);
    }

    /**
     * The body of the domain's {@code createQueuePair}: every resource involved is held open
     * around the verb, and the queue pair {@code wrap} builds is registered before it is returned.
     *
     * @param context the domain's context (read once the domain is held open)
     */
    static <Q extends VerbsResource> Q create(VerbsResource pd, Context context, QueuePairOptions options, Wrap<Q> wrap) {
        Objects.requireNonNull(pd, "ibv_create_qp: protection domain is null");
        Objects.requireNonNull(options, "ibv_create_qp: options is null");
        boolean useExtended = options.needsExtendedCreate();
        String verb = useExtended ? "ibv_create_qp_ex" : "ibv_create_qp";
        return holding(options.dependencies(pd), arena -> {
            check(verb, pd, context, options, context.maxAttributes());
            context.criticalPosts(); // decided before the verb: the constructor must not throw after it
            MemorySegment handle;
            MemorySegment attr;
            if (useExtended) {
                attr = arena.allocate(ibv_qp_init_attr_ex.LAYOUT);
                writeInitAttrEx(attr, options, pd);
                MemorySegment callState = CallState.allocate(arena);
                handle = MemorySegment.ofAddress(ExtendedOps.createQpEx(callState, context.handleAddress(),
                        attr.address()));
                NativeCalls.checkPointer("ibv_create_qp_ex", handle, CallState.errno(callState));
            } else {
                attr = arena.allocate(ibv_qp_init_attr.LAYOUT);
                writeInitAttr(attr, options);
                MemorySegment callState = CallState.allocate(arena);
                handle = IbverbsCalls.ibv_create_qp(callState, pd.handleSegment(), attr);
                NativeCalls.checkPointer(verb, handle, CallState.errno(callState));
            }
            // The provider writes the sizes it granted back into cap (the prefix both structs share).
            QueuePairCapabilities granted = QueuePairAttributes.readCapabilities(ibv_qp_init_attr.cap(attr));
            Q qp = wrap.over(Pointers.sized(handle, ibv_qp.LAYOUT.byteSize()), granted, useExtended);
            qp.register();
            return qp;
        });
    }

    /**
     * Runs {@code body} with every resource of {@code used} checked open and held (acquired in
     * order, released after it) and a confined arena for the call, closed before the releases.
     */
    private static <Q> Q holding(VerbsResource[] used, Function<Arena, Q> body) {
        VerbsResource.requireOpen(used);
        int held = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (VerbsResource resource : used) {
                resource.acquire();
                held++;
            }
            return body.apply(arena);
        } finally {
            for (int i = 0; i < held; i++) {
                used[i].release();
            }
        }
    }

    /**
     * {@code rdma_create_qp(id, pd, attr)}: a queue pair librdmacm knows and drives (INIT at once
     * for RC, RTS for UD; RTR/RTS on connect). Same checks as {@link #create}; the caller holds
     * {@code id} and checked that {@code pd} is on the identifier's context. {@code wrap} also
     * records the state librdmacm left the queue pair in.
     */
    static <Q extends VerbsResource> Q createOnIdentifier(MemorySegment idHandle, VerbsResource pd, Context context,
                                                          QueuePairOptions options, Wrap<Q> wrap) {
        return holding(options.dependencies(pd), arena -> {
            check("rdma_create_qp", pd, context, options, context.maxAttributes());
            context.criticalPosts(); // decided before the verb: the constructor must not throw after it
            MemorySegment attr = arena.allocate(ibv_qp_init_attr.LAYOUT);
            writeInitAttr(attr, options);
            MemorySegment callState = CallState.allocate(arena);
            int rc = dev.panamaverbs.gateway.RdmacmCalls.rdma_create_qp(callState, idHandle, pd.handleSegment(), attr);
            NativeCalls.checkErrno("rdma_create_qp", rc, CallState.errno(callState));
            MemorySegment handle = dev.panamaverbs.ffm.rdmacm.rdma_cm_id.qp(idHandle);
            QueuePairCapabilities granted = QueuePairAttributes.readCapabilities(ibv_qp_init_attr.cap(attr));
            Q qp = wrap.over(Pointers.sized(handle, ibv_qp.LAYOUT.byteSize()), granted, false);
            qp.register();
            return qp;
        });
    }

    /**
     * Every check that can be made before {@code ibv_create_qp}: queue sizes against the
     * device's {@code max_qp_wr} / {@code max_sge}, and that the queues and the SRQ belong to the
     * protection domain's device ({@code context}).
     *
     * @throws IllegalArgumentException naming the verb and the limit
     */
    static void check(String verb, VerbsResource pd, Context context, QueuePairOptions options, DeviceAttributes device) {
        checkCapabilities(verb, options.capabilities(), device);
        requireSameContext(verb, "send_cq", options.sendCompletionQueue().context(), context);
        requireSameContext(verb, "recv_cq", options.receiveCompletionQueue().context(), context);
        options.sharedReceiveQueue().ifPresent(srq -> {
            if (srq.protectionDomain() != pd) {
                throw new IllegalArgumentException(verb + ": " + srq + " belongs to another protection domain than " + pd);
            }
        });
    }

    /**
     * The queue sizes of {@link #check} against the device's {@code max_qp_wr} / {@code max_sge}
     * (compared unsigned, as the C fields are).
     *
     * @throws IllegalArgumentException naming the verb, the field and the device limit
     */
    static void checkCapabilities(String verb, QueuePairCapabilities caps, DeviceAttributes device) {
        requireAtMost(verb, "max_send_wr", caps.maxSendWorkRequests(), "max_qp_wr", device.maxQpWr());
        requireAtMost(verb, "max_recv_wr", caps.maxReceiveWorkRequests(), "max_qp_wr", device.maxQpWr());
        requireAtMost(verb, "max_send_sge", caps.maxSendSge(), "max_sge", device.maxSge());
        requireAtMost(verb, "max_recv_sge", caps.maxReceiveSge(), "max_sge", device.maxSge());
    }

    private static void requireAtMost(String verb, String field, int value, String limitName, int limit) {
        if (Integer.toUnsignedLong(value) > Integer.toUnsignedLong(limit)) {
            throw new IllegalArgumentException(verb + ": " + field + " must be at most " + Integer.toUnsignedLong(limit)
                    + " (device " + limitName + "), got " + value);
        }
    }

    private static void requireSameContext(String verb, String what, Context owner, Context expected) {
        if (!expected.sharesNativeContext(owner)) {
            throw new IllegalArgumentException(verb + ": " + what + " belongs to another device context than the protection domain");
        }
    }

    /**
     * Fills a zeroed {@code struct ibv_qp_init_attr} (also the prefix of
     * {@code ibv_qp_init_attr_ex}) from the options. Call inside the acquire of every resource
     * whose address it writes.
     */
    static void writeInitAttr(MemorySegment attr, QueuePairOptions options) {
        ibv_qp_init_attr.send_cq(attr, options.sendCompletionQueue().handleSegment());
        ibv_qp_init_attr.recv_cq(attr, options.receiveCompletionQueue().handleSegment());
        options.sharedReceiveQueue().ifPresent(srq -> ibv_qp_init_attr.srq(attr, srq.handleSegment()));
        MemorySegment cap = ibv_qp_init_attr.cap(attr);
        QueuePairCapabilities caps = options.capabilities();
        ibv_qp_cap.max_send_wr(cap, caps.maxSendWorkRequests());
        ibv_qp_cap.max_recv_wr(cap, caps.maxReceiveWorkRequests());
        ibv_qp_cap.max_send_sge(cap, caps.maxSendSge());
        ibv_qp_cap.max_recv_sge(cap, caps.maxReceiveSge());
        ibv_qp_cap.max_inline_data(cap, caps.maxInlineData());
        ibv_qp_init_attr.qp_type(attr, options.type().value());
        ibv_qp_init_attr.sq_sig_all(attr, options.signalAll() ? 1 : 0);
    }

    /**
     * Fills a zeroed {@code struct ibv_qp_init_attr_ex}: the common prefix, {@code pd}, and
     * {@code send_ops_flags} with its {@code comp_mask} bit when extended operations are asked for.
     */
    static void writeInitAttrEx(MemorySegment attr, QueuePairOptions options, VerbsResource pd) {
        writeInitAttr(attr, options);
        int compMask = IBV_QP_INIT_ATTR_PD;
        ibv_qp_init_attr_ex.pd(attr, pd.handleSegment());
        long sendOps = options.sendOpsFlags();
        if (sendOps != 0) {
            compMask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
            ibv_qp_init_attr_ex.send_ops_flags(attr, sendOps);
        }
        ibv_qp_init_attr_ex.comp_mask(attr, compMask);
    }
}
