package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetAddress;

/**
 * librdmacm gives every identifier on a device one native context; each identifier's
 * {@code context()} is a wrapper of its own. {@link Context#sharesNativeContext} tells them apart
 * from a context this process opened itself, and a protection domain made on one identifier's
 * wrapper serves {@code rdma_create_qp} on another identifier of the device (what a shared
 * receive pool needs), while one of an opened context is still refused before the verb.
 */
class SharedDeviceContextDeviceTest {
    @DeviceTest
    void aProtectionDomainOfOneIdentifierServesAnotherOnTheSameDevice(TestDevice device) {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (Context opened = DeviceScope.openContext(device);
             ConnectionEventChannel channel = ConnectionEventChannel.create()) {
            ConnectionId anchor = channel.createIdentifier(PortSpace.TCP);
            anchor.bind(anyPort(ip));
            ConnectionId other = channel.createIdentifier(PortSpace.TCP);
            other.resolveAddress(anyPort(ip), WAIT);
            other.resolveRoute(WAIT);
            assertNotSame(anchor.context(), other.context(), "each identifier wraps the context itself");
            assertTrue(anchor.context().sharesNativeContext(other.context()), "one native context per device");
            assertFalse(opened.sharesNativeContext(anchor.context()), "ibv_open_device made a context of its own");

            ProtectionDomain shared = anchor.context().allocateProtectionDomain();
            ProtectionDomain foreign = opened.allocateProtectionDomain();
            QueuePairOptions options = QueuePairOptions.builder(QueuePairType.RC,
                    other.context().createCompletionQueue(8)).build();
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> other.createQueuePair(foreign, options));
            assertTrue(refused.getMessage().startsWith("rdma_create_qp"), refused.getMessage());

            QueuePair qp = other.createQueuePair(shared, options);
            assertSame(qp, other.queuePair().orElseThrow());
            other.close();
            assertTrue(qp.isClosed(), "the identifier's close took its queue pair, made in another's domain");
            assertFalse(shared.isClosed(), "the domain stays with the identifier it was made on");
            shared.close();
        }
    }
}
