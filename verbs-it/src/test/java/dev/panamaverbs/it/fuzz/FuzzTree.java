package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.RdmaCm;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * One of every resource kind the API has, opened for the misuse fuzz: a context with a PD, a
 * completion channel and its CQ, an SRQ, an RC QP on the SRQ and a UD QP, a region owning its
 * memory and one over the caller's, an address handle, memory windows of both types (when the
 * device has them), and an rdma_cm event channel with an identifier (when librdmacm is there).
 * The UD QP and the address handle only on a device with {@link DeviceCapability#UD}.
 * {@link #close()} closes the rdma_cm pair and the context, which closes the rest.
 */
record FuzzTree(Context context, List<VerbsResource> resources, ConnectionEventChannel cmChannel) implements AutoCloseable {
    static FuzzTree open(TestDevice device, Arena arena) {
        Context context = DeviceScope.openContext(device);
        List<VerbsResource> all = new ArrayList<>(List.of(context));
        ConnectionEventChannel cm = null;
        try {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionChannel channel = context.createCompletionChannel();
            CompletionQueue cq = context.createCompletionQueue(16, channel, 0);
            var srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1));
            all.addAll(List.of(pd, channel, cq, srq));
            all.add(pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).sharedReceiveQueue(srq)
                    .maxSendWorkRequests(8).maxSendSge(1).build()));
            all.add(pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE)));
            all.add(pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE)));
            if (DeviceCapability.UD.isSupportedBy(context)) {
                all.add(pd.createQueuePair(QueuePairOptions.builder(QueuePairType.UD, cq).maxSendWorkRequests(8)
                        .maxReceiveWorkRequests(8).maxSendSge(1).maxReceiveSge(1).build()));
                GidEntry gid = DeviceScope.sourceGid(context, device);
                all.add(pd.createAddressHandle(AddressHandleAttributes.roce(gid, gid.gid())));
            } else {
                System.out.println("no UD queue pair or address handle: capability UD missing");
            }
            for (MemoryWindowType type : MemoryWindowType.values()) {
                try {
                    all.add(pd.allocateMemoryWindow(type));
                } catch (VerbsUnsupportedException e) {
                    System.out.println("no memory window of " + type + ": " + e.getMessage());
                }
            }
            if (RdmaCm.isAvailable()) {
                cm = ConnectionEventChannel.create();
                all.add(cm);
                all.add(cm.createIdentifier(PortSpace.TCP));
            }
        } catch (RuntimeException e) {
            if (cm != null) {
                cm.close();
            }
            context.close();
            throw e;
        }
        return new FuzzTree(context, List.copyOf(all), cm);
    }

    @Override
    public void close() {
        if (cmChannel != null) {
            cmChannel.close();
        }
        context.close();
    }
}
