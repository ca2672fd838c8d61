package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.values.QueuePairAttributes;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.ffm.ibv_qp_attr;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/** Queue pair creation, query, the typed state machine of each transport, and close ordering, on a real device. */
class QueuePairLifecycleTest {
    private static final int QKEY = 0x0BADCAFE;

    private static Context open(TestDevice device) {
        return Verbs.device(device.name()).orElseThrow().open();
    }

    private static QueuePairOptions options(QueuePairType type, CompletionQueue cq) {
        return QueuePairOptions.builder(type, cq).maxSendWorkRequests(32).maxReceiveWorkRequests(16)
                .maxSendSge(2).maxReceiveSge(1).build();
    }

    /**
     * What most tests here start from: a context on the device, a protection domain, and one
     * completion queue of 64 for sends and receives. Closing closes the context, and with it the rest.
     */
    private record Setup(Context context, ProtectionDomain pd, CompletionQueue cq) implements AutoCloseable {
        static Setup open(TestDevice device) {
            Context context = QueuePairLifecycleTest.open(device);
            try {
                return new Setup(context, context.allocateProtectionDomain(), context.createCompletionQueue(64));
            } catch (Throwable t) {
                DeviceScope.closeAfterFailure(context, t);
                throw t;
            }
        }

        /** A queue pair of {@code type} on this setup's queue, with the sizes of {@link #options}. */
        QueuePair createQueuePair(QueuePairType type) {
            return pd.createQueuePair(options(type, cq));
        }

        /** An RC queue pair connected to itself, in RTS with send PSN 0x222. */
        QueuePair rcInRts(TestDevice device) {
            DeviceCapability.CONNECT_WITHOUT_CM.require(context);
            QueuePair qp = createQueuePair(QueuePairType.RC);
            qp.toInit(device.port(), 0, EnumSet.of(AccessFlag.REMOTE_WRITE));
            qp.toRtr(self(context, device, qp, 0x111));
            qp.toRts(0x222);
            return qp;
        }

        @Override
        public void close() {
            context.close();
        }
    }

    /** A remote endpoint that is {@code qp} itself: a queue pair may be connected to itself. */
    private static RemoteEndpoint self(Context context, TestDevice device, QueuePair qp, int psn) {
        PortAttributes port = context.queryPort(device.port());
        if (port.grhRequired()) {
            Gid gid = context.queryGid(device.port(), device.gidIndex()).map(GidEntry::gid).orElseThrow();
            return RemoteEndpoint.global(qp.number(), psn, gid, device.gidIndex(), Mtu.MTU_1024);
        }
        return RemoteEndpoint.local(qp.number(), psn, port.lid(), Mtu.MTU_1024);
    }

    @DeviceTest
    void createsEveryTransportInResetWithAtLeastTheAskedSizes(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            EnumSet<QueuePairType> types = EnumSet.of(QueuePairType.RC);
            if (DeviceCapability.UC.isSupportedBy(setup.context())) {
                types.add(QueuePairType.UC);
            }
            if (DeviceCapability.UD.isSupportedBy(setup.context())) {
                types.add(QueuePairType.UD);
            }
            for (QueuePairType type : types) {
                QueuePair qp = setup.createQueuePair(type);
                assertEquals(type, qp.type());
                assertTrue(qp.number() > 0 && qp.number() <= 0xFF_FFFF, "qpn " + qp.number());
                assertEquals(QueuePairState.RESET, qp.state());
                assertTrue(qp.capabilities().maxSendWorkRequests() >= 32, qp.capabilities().toString());
                assertTrue(qp.capabilities().maxSendSge() >= 2, qp.capabilities().toString());
                QueuePairAttributes attributes = qp.query();
                assertEquals(QueuePairState.RESET, attributes.state());
                assertTrue(attributes.capabilities().maxSendWorkRequests() >= 32, attributes.toString());
                assertFalse(attributes.signalAll());
                assertTrue(qp.toString().contains("qpn=" + qp.number()), qp.toString());
                qp.close();
                assertTrue(qp.isClosed());
            }
            QueuePair signalAll = setup.pd().createQueuePair(
                    QueuePairOptions.builder(QueuePairType.RC, setup.cq()).signalAll(true).build());
            assertTrue(signalAll.query().signalAll());
            // What was left out above ends the test as a skip naming it.
            DeviceCapability.UC.require(setup.context());
            DeviceCapability.UD.require(setup.context());
        }
    }

    @DeviceTest
    void rcAndUcGoThroughTheWholeStateMachine(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            // RTR and RTS below connect by hand; iWARP's refusal is CapabilityRefusalDeviceTest's.
            DeviceCapability.CONNECT_WITHOUT_CM.require(setup.context());
            boolean uc = DeviceCapability.UC.isSupportedBy(setup.context());
            for (QueuePairType type : uc ? EnumSet.of(QueuePairType.RC, QueuePairType.UC) : EnumSet.of(QueuePairType.RC)) {
                QueuePair qp = setup.createQueuePair(type);
                Set<AccessFlag> access = type == QueuePairType.RC
                        ? EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC)
                        : EnumSet.of(AccessFlag.REMOTE_WRITE);
                for (int round = 0; round < 2; round++) { // RESET lets the queue pair start over
                    qp.toInit(device.port(), 0, access);
                    QueuePairAttributes init = qp.query();
                    assertEquals(QueuePairState.INIT, init.state(), type + " " + init);
                    assertEquals(device.port(), init.port());
                    assertTrue(init.accessFlags().containsAll(access), init.accessFlags().toString());

                    qp.toRtr(self(setup.context(), device, qp, 0x111));
                    QueuePairAttributes rtr = qp.query();
                    assertEquals(QueuePairState.RTR, rtr.state(), type + " " + rtr);
                    assertEquals(qp.number(), rtr.destQpn());
                    assertEquals(0x111, rtr.rqPsn());
                    assertEquals(Mtu.MTU_1024, rtr.pathMtu());

                    qp.toRts(0x222);
                    QueuePairAttributes rts = qp.query();
                    assertEquals(QueuePairState.RTS, rts.state(), type + " " + rts);
                    assertEquals(0x222, rts.sqPsn());
                    if (type == QueuePairType.RC) {
                        assertEquals(14, rts.timeout());
                        assertEquals(ReadyToSendOptions.DEFAULT_RETRY_COUNT, rts.retryCount(), "the default: bounded on rxe");
                        assertEquals(7, rts.rnrRetry());
                        assertTrue(rts.maxReadAtomic() >= 1, rts.toString());
                        assertEquals(12, rts.minRnrTimer());
                    }
                    qp.toError();
                    assertEquals(QueuePairState.ERROR, qp.query().state());
                    qp.toReset();
                    assertEquals(QueuePairState.RESET, qp.query().state());
                    assertEquals(QueuePairState.RESET, qp.state());
                }
            }
            DeviceCapability.UC.require(setup.context()); // UC left out above: the test ends as its skip
        }
    }

    @DeviceTest
    void rtsToRtsChangesMinRnrTimerOnly(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            QueuePair qp = setup.rcInRts(device);
            assertEquals(12, qp.query().minRnrTimer());

            qp.resumeRts(20); // RTS -> RTS with STATE | MIN_RNR_TIMER
            QueuePairAttributes changed = qp.query();
            assertEquals(QueuePairState.RTS, changed.state(), changed.toString());
            assertEquals(20, changed.minRnrTimer());
            assertEquals(0x222, changed.sqPsn(), "RTS -> RTS must leave the send PSN alone");
            assertEquals(14, changed.timeout());

            qp.resumeRts(); // RTS -> RTS with STATE only
            assertEquals(QueuePairState.RTS, qp.query().state());
            assertEquals(20, qp.query().minRnrTimer());

            IllegalStateException rtrAttributes = assertThrows(IllegalStateException.class, () -> qp.toRts(5));
            assertTrue(rtrAttributes.getMessage().contains("resumeRts"), rtrAttributes.getMessage());
            assertThrows(IllegalArgumentException.class, () -> qp.resumeRts(32));
            QueuePair ud = setup.createQueuePair(QueuePairType.UD);
            assertThrows(IllegalArgumentException.class, () -> ud.resumeRts(12), "min_rnr_timer is RC only");
            assertThrows(IllegalStateException.class, ud::resumeRts, "RESET cannot resume RTS");
            assertThrows(IllegalStateException.class, ud::toSqd, "RESET -> SQD");
        }
    }

    @DeviceTest
    void rtsToSqdAndBack(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            QueuePair qp = setup.rcInRts(device);
            try {
                qp.toSqd();
            } catch (VerbsException e) {
                // rxe before Linux 6.x answers EINVAL for RTS -> SQD.
                assumeTrue(e.errno() != Errno.EINVAL, "the provider rejects RTS -> SQD: " + e.getMessage());
                throw e;
            }
            assertEquals(QueuePairState.SQD, qp.state());
            assertEquals(QueuePairState.SQD, qp.query().state());
            qp.resumeRts(13); // SQD -> RTS with MIN_RNR_TIMER
            QueuePairAttributes back = qp.query();
            assertEquals(QueuePairState.RTS, back.state(), back.toString());
            assertEquals(13, back.minRnrTimer());
        }
    }

    @DeviceTest
    void udGoesThroughTheWholeStateMachine(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            DeviceCapability.UD.require(setup.context());
            QueuePair qp = setup.createQueuePair(QueuePairType.UD);
            qp.toInit(device.port(), 0, QKEY);
            QueuePairAttributes init = qp.query();
            assertEquals(QueuePairState.INIT, init.state());
            assertEquals(QKEY, init.qkey());
            qp.toRtr();
            assertEquals(QueuePairState.RTR, qp.query().state());
            qp.toRts(77);
            QueuePairAttributes rts = qp.query();
            assertEquals(QueuePairState.RTS, rts.state());
            assertEquals(77, rts.sqPsn());
            qp.toError();
            assertEquals(QueuePairState.ERROR, qp.query().state());
            qp.toReset();
            assertEquals(QueuePairState.RESET, qp.query().state());
        }
    }

    @DeviceTest
    void illegalTransitionsFailBeforeTheNativeCall(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            QueuePair rc = setup.createQueuePair(QueuePairType.RC);
            RemoteEndpoint remote = self(setup.context(), device, rc, 0);
            assertThrows(IllegalStateException.class, () -> rc.toRtr(remote));
            assertThrows(IllegalStateException.class, rc::toRts);
            assertThrows(IllegalStateException.class, rc::toError, "RESET -> ERROR is not a verbs transition");
            rc.toInit(device.port(), EnumSet.of(AccessFlag.REMOTE_WRITE));
            IllegalStateException early = assertThrows(IllegalStateException.class, rc::toRts);
            assertTrue(early.getMessage().contains("INIT") && early.getMessage().contains("RTS"), early.getMessage());
            assertEquals(QueuePairState.INIT, rc.query().state(), "the refused transition must not reach the device");
            assertThrows(IllegalArgumentException.class, () -> rc.toInit(device.port(), 0, QKEY));
            assertThrows(IllegalArgumentException.class, rc::toRtr);
            assertThrows(IllegalArgumentException.class, () -> rc.toInit(0, EnumSet.noneOf(AccessFlag.class)));
            assertThrows(IllegalArgumentException.class, () -> rc.toInit(device.port(), EnumSet.of(AccessFlag.MW_BIND)));

            QueuePair uc = setup.createQueuePair(QueuePairType.UC);
            assertThrows(IllegalArgumentException.class, () -> uc.toInit(device.port(), EnumSet.of(AccessFlag.REMOTE_READ)));

            QueuePair ud = setup.createQueuePair(QueuePairType.UD);
            assertThrows(IllegalArgumentException.class, () -> ud.toInit(device.port(), EnumSet.noneOf(AccessFlag.class)));
            ud.toInit(device.port(), 0, QKEY);
            assertThrows(IllegalArgumentException.class, () -> ud.toRtr(remote));

            if (setup.context().queryPort(device.port()).isEthernet()) {
                RemoteEndpoint withoutGid = RemoteEndpoint.local(rc.number(), 0, 0, Mtu.MTU_1024);
                IllegalArgumentException roce = assertThrows(IllegalArgumentException.class, () -> rc.toRtr(withoutGid));
                assertTrue(roce.getMessage().contains("GID"), roce.getMessage());
            }
            RemoteEndpoint tooLarge = new RemoteEndpoint(remote.qpn(), 0, remote.lid(), remote.gid(), Mtu.MTU_4096, 0,
                    remote.sgidIndex(), 64, 0, 0, 0);
            if (setup.context().queryPort(device.port()).activeMtu().value() < Mtu.MTU_4096.value()) {
                assertThrows(IllegalArgumentException.class, () -> rc.toRtr(tooLarge));
            }
        }
    }

    @DeviceTest
    void sizesAboveTheDeviceLimitsAreRefusedBeforeTheNativeCall(TestDevice device) {
        try (Context context = open(device)) {
            DeviceAttributes limits = context.maxAttributes();
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue cq = context.createCompletionQueue(64);
            IllegalArgumentException wr = assertThrows(IllegalArgumentException.class, () -> pd.createQueuePair(
                    QueuePairOptions.builder(QueuePairType.RC, cq).maxSendWorkRequests(limits.maxQpWr() + 1).build()));
            assertTrue(wr.getMessage().startsWith("ibv_create_qp: max_send_wr") && wr.getMessage().contains("max_qp_wr"),
                    wr.getMessage());
            IllegalArgumentException sge = assertThrows(IllegalArgumentException.class, () -> pd.createQueuePair(
                    QueuePairOptions.builder(QueuePairType.RC, cq).maxReceiveSge(limits.maxSge() + 1).build()));
            assertTrue(sge.getMessage().contains("max_sge"), sge.getMessage());
        }
    }

    @DeviceTest
    void closingAQueueOrTheDomainClosesTheQueuePairFirst(TestDevice device) {
        try (Context context = open(device)) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue sendCq = context.createCompletionQueue(64);
            CompletionQueue recvCq = context.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq, recvCq).build());
            recvCq.close(); // ibv_destroy_cq would fail with EBUSY if the QP still used it
            assertTrue(qp.isClosed());
            assertFalse(sendCq.isClosed());
            assertFalse(pd.isClosed());

            DeviceCapability.UD.require(context); // the next queue pairs are UD and UC
            DeviceCapability.UC.require(context);
            QueuePair second = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.UD, sendCq).build());
            pd.close();
            assertTrue(second.isClosed());
            assertFalse(sendCq.isClosed());

            ProtectionDomain pd2 = context.allocateProtectionDomain();
            QueuePair third = pd2.createQueuePair(QueuePairOptions.builder(QueuePairType.UC, sendCq).build());
            sendCq.close();
            assertTrue(third.isClosed());
            assertThrows(IllegalStateException.class, () -> pd2.createQueuePair(
                    QueuePairOptions.builder(QueuePairType.UC, sendCq).build()), "a closed CQ cannot take a new QP");
        }
    }

    @DeviceTest
    void useAfterCloseIsAnIllegalStateNotACrash(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            QueuePair qp = setup.createQueuePair(QueuePairType.RC);
            qp.close();
            qp.close(); // idempotent
            IllegalStateException query = assertThrows(IllegalStateException.class, qp::query);
            assertTrue(query.getMessage().contains("QueuePair"), query.getMessage());
            assertThrows(IllegalStateException.class, () -> qp.toInit(device.port(), EnumSet.noneOf(AccessFlag.class)));
            assertThrows(IllegalStateException.class, () -> qp.postSend(SendWorkRequest.allocate(1)));
            assertThrows(IllegalStateException.class, () -> qp.postReceive(ReceiveWorkRequest.allocate(1)));
            assertThrows(IllegalStateException.class, qp::handle);
        }
    }

    @DeviceTest
    void rawModifyIsTheEscapeHatch(TestDevice device) {
        try (Context context = open(device); Arena arena = Arena.ofConfined()) {
            DeviceCapability.UD.require(context);
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue cq = context.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(options(QueuePairType.UD, cq));
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, QueuePairState.INIT.value());
            ibv_qp_attr.port_num(attr, (byte) device.port());
            ibv_qp_attr.qkey(attr, QKEY);
            qp.modify(attr, EnumSet.of(QueuePairAttributeMask.STATE, QueuePairAttributeMask.PKEY_INDEX, QueuePairAttributeMask.PORT,
                    QueuePairAttributeMask.QKEY));
            assertEquals(QueuePairState.INIT, qp.state());
            assertEquals(QKEY, qp.query().qkey());
            // Missing the Q_Key the verbs require for UD INIT: the device refuses (EINVAL).
            QueuePair other = pd.createQueuePair(options(QueuePairType.UD, cq));
            assertThrows(dev.panamaverbs.VerbsException.class,
                    () -> other.modify(attr, EnumSet.of(QueuePairAttributeMask.STATE, QueuePairAttributeMask.PORT)));
            assertEquals(QueuePairState.RESET, other.state());
        }
    }

    @DeviceTest
    void extendedCreationGoesThroughCreateQpEx(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            QueuePair qp = setup.pd().createQueuePair(QueuePairOptions.builder(QueuePairType.RC, setup.cq())
                    .extendedSendOperations(EnumSet.of(WorkRequestOpcode.SEND, WorkRequestOpcode.RDMA_WRITE)).build());
            assertTrue(qp.isExtended());
            assertEquals(QueuePairState.RESET, qp.query().state());
            qp.toInit(device.port(), EnumSet.of(AccessFlag.REMOTE_WRITE));
            assertEquals(QueuePairState.INIT, qp.query().state());
        }
    }

    @DeviceTest
    void aQueuePairWithASharedReceiveQueueTakesNoReceives(TestDevice device) {
        try (Setup setup = Setup.open(device)) {
            SharedReceiveQueue srq = setup.pd().createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
            QueuePair qp = setup.pd().createQueuePair(
                    QueuePairOptions.builder(QueuePairType.RC, setup.cq()).sharedReceiveQueue(srq).build());
            assertEquals(srq, qp.sharedReceiveQueue().orElseThrow());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> qp.postReceive(ReceiveWorkRequest.allocate(1)));
            assertTrue(e.getMessage().contains("SharedReceiveQueue"), e.getMessage());
            srq.close();
            assertTrue(qp.isClosed(), "closing the SRQ closes the queue pairs using it");
        }
    }
}
