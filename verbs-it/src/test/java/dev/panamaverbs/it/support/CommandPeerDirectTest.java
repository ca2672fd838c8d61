package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which peer jobs B's agent runs without a JVM of their own: command peers that need no device query. */
class CommandPeerDirectTest {
    private static final String COMMAND_PEER = CommandPeer.class.getName();

    @Test
    void aCommandPeerJobIsItsCommandAndListener() {
        CommandPeer.Direct direct = CommandPeer.Direct.of(COMMAND_PEER, List.of("TCP", "18600", "/usr/bin/ib_send_bw", "-d", "rxe1"))
                .orElseThrow();
        assertEquals(Listening.TCP, direct.listening());
        assertEquals(18600, direct.port());
        assertEquals(List.of("/usr/bin/ib_send_bw", "-d", "rxe1"), direct.command());
        assertTrue(direct.listens());
        assertFalse(CommandPeer.Direct.of(COMMAND_PEER, List.of("NONE", "0", "true")).orElseThrow().listens());
    }

    @Test
    void aCommandNeedingTheGidIndexKeepsItsJvm() {
        assertTrue(CommandPeer.Direct.of(COMMAND_PEER, List.of("TCP", "1", "ibv_rc_pingpong", "-g", CommandPeer.GID_INDEX)).isEmpty());
    }

    @Test
    void otherPeersAndShortRequestsKeepTheirJvm() {
        assertTrue(CommandPeer.Direct.of("dev.panamaverbs.it.twohost.SomePeer", List.of("TCP", "1", "true")).isEmpty());
        assertTrue(CommandPeer.Direct.of(COMMAND_PEER, List.of("TCP", "1")).isEmpty());
    }
}
