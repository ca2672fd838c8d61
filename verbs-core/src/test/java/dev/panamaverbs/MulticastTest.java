package dev.panamaverbs;

import dev.panamaverbs.values.Gid;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which GIDs {@code ibv_attach_mcast} is given: checked before the verb (the device test: MoreVerbsDeviceTest). */
class MulticastTest {
    @Test
    void multicastGidsAreFf00OrIpv4MappedClassD() {
        assertTrue(Multicast.isMulticast(Gid.parse("ff0e::1")));
        assertTrue(Multicast.isMulticast(Gid.parse("ff12:601b::1")));
        assertTrue(Multicast.isMulticast(Gid.parse("::ffff:239.1.2.3")));
        assertTrue(Multicast.isMulticast(Gid.parse("::ffff:224.0.0.1")));
        assertFalse(Multicast.isMulticast(Gid.parse("::ffff:10.0.0.1")));
        assertFalse(Multicast.isMulticast(Gid.parse("::ffff:240.0.0.1")));
        assertFalse(Multicast.isMulticast(Gid.parse("fe80::1")));
        assertFalse(Multicast.isMulticast(Gid.parse("::e000:1")), "class D bits outside an IPv4-mapped GID");
    }
}
