package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

/**
 * {@code ibv_attach_mcast} / {@code ibv_detach_mcast} for {@link QueuePair}: the checks, then the
 * verb. The queue pair passes its handle, type and list of groups, not itself.
 */
final class Multicast {
    private Multicast() {}

    /**
     * Checks a UD queue pair, a multicast GID and a uint16_t LID, then calls {@code verb}
     * ({@code ibv_attach_mcast} or {@code ibv_detach_mcast}) with the queue pair held, and keeps
     * {@code groups}, the queue pair's attached groups, up to date.
     */
    static void call(String verb, VerbsResource qp, QueuePairType type, List<Group> groups, Gid group, int lid) {
        Objects.requireNonNull(group, verb + ": gid");
        if (type != QueuePairType.UD) {
            throw new IllegalArgumentException(verb + ": only UD queue pairs join multicast groups, " + qp + " is "
                    + type);
        }
        if (!isMulticast(group)) {
            throw new IllegalArgumentException(verb + ": " + group.toAddressString() + " is not a multicast GID"
                    + " (ff00::/8, or an IPv4-mapped 224.0.0.0/4 address for RoCE v2)");
        }
        if (lid < 0 || lid > 0xFFFF) {
            throw new IllegalArgumentException(verb + ": lid is a uint16_t, got " + lid);
        }
        boolean attach = verb.equals("ibv_attach_mcast");
        qp.acquire();
        try {
            NativeCalls.checkReturnedErrno(verb, invoke(attach, qp.handleSegment(), group, lid));
            groups.remove(new Group(group, lid));
            if (attach) {
                groups.add(new Group(group, lid));
            }
        } finally {
            qp.release();
        }
    }

    /** A group a queue pair attached to, detached again before the queue pair is destroyed. */
    record Group(Gid gid, int lid) {}

    /** Before {@code ibv_destroy_qp}: detaches every group still attached (a provider refuses to destroy otherwise). */
    static void detachAll(MemorySegment qp, List<Group> groups) {
        for (Group group : groups) {
            invoke(false, qp, group.gid(), group.lid()); // best effort: destroy reports what remains
        }
        groups.clear();
    }

    private static int invoke(boolean attach, MemorySegment qp, Gid group, int lid) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment gid = arena.allocateFrom(ValueLayout.JAVA_BYTE, group.toByteArray());
            MemorySegment state = CallState.allocate(arena);
            return attach ? IbverbsCalls.ibv_attach_mcast(state, qp, gid, (short) lid)
                    : IbverbsCalls.ibv_detach_mcast(state, qp, gid, (short) lid);
        }
    }

    /** ff00::/8, or ::ffff:a.b.c.d with a.b.c.d in 224.0.0.0/4. */
    static boolean isMulticast(Gid gid) {
        byte[] raw = gid.toByteArray();
        if ((raw[0] & 0xFF) == 0xFF) {
            return true;
        }
        return gid.isIpv4Mapped() && (raw[12] & 0xF0) == 0xE0;
    }
}
