package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_device;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * {@link CoreAccess} for the other packages of this module: the resource tree's internals they
 * need, without making them public API. {@link Verbs} installs it when its class initialises:
 * the bridge names the resources, so the entry point at the top installs it, not their base.
 */
final class CoreBridge extends CoreAccess {
    private CoreBridge() {}

    /** Installs the one instance ({@link CoreAccess#install}). */
    static void install() {
        CoreAccess.install(new CoreBridge());
    }

    @Override public MemorySegment handleSegment(VerbsResource resource) { return resource.handleSegment(); }
    @Override public long handleAddress(VerbsResource resource) { return resource.handleAddress(); }
    @Override public void acquire(VerbsResource resource) { resource.acquire(); }
    @Override public void release(VerbsResource resource) { resource.release(); }
    @Override public void register(VerbsResource resource) { resource.register(); }
    @Override public List<VerbsResource> liveDependents(VerbsResource resource) { return resource.liveDependents(); }

    @Override
    public Device describeDevice(MemorySegment context) {
        return Device.describe(Pointers.sized(ibv_context.device(context), ibv_device.SIZE));
    }

    @Override
    public Context adoptContext(MemorySegment context, VerbsResource owner) {
        Context wrapper = new Context(describeDevice(context), context, owner);
        wrapper.register();
        return wrapper;
    }

    @Override
    public QueuePair createQueuePairOnIdentifier(MemorySegment idHandle, ProtectionDomain pd,
                                                 QueuePairOptions options, Runnable destroy) {
        return QueuePairCreation.createOnIdentifier(idHandle, pd, pd.parentContext(), options, (handle, granted, extended) -> {
            QueuePair qp = new QueuePair(pd, options, handle, granted, extended, destroy);
            qp.assumeState(options.type() == QueuePairType.UD ? QueuePairState.RTS : QueuePairState.INIT);
            return qp;
        });
    }

    @Override
    public void assumeState(QueuePair queuePair, QueuePairState state) { queuePair.assumeState(state); }
}
