package dev.panamaverbs.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import org.junit.jupiter.api.Test;

/** epoll and eventfd on real fds: the layout of {@code struct epoll_event}, arming, one-shot, wake-up. */
class EpollTest {

    @Test
    void epollEventIsPackedOnX86_64() {
        assertTrue(Epoll.isX86_64("amd64"));
        assertTrue(Epoll.isX86_64("x86_64"));
        assertFalse(Epoll.isX86_64("aarch64"));
        if (Epoll.isX86_64(System.getProperty("os.arch"))) {
            assertEquals(12, Epoll.EPOLL_EVENT.byteSize(), "__attribute__((packed)) on x86-64");
            assertEquals(4, Epoll.EPOLL_EVENT.byteOffset(MemoryLayout.PathElement.groupElement("data")));
        } else {
            assertEquals(16, Epoll.EPOLL_EVENT.byteSize());
            assertEquals(8, Epoll.EPOLL_EVENT.byteOffset(MemoryLayout.PathElement.groupElement("data")));
        }
        assertEquals(0, Epoll.EPOLL_EVENT.byteOffset(MemoryLayout.PathElement.groupElement("events")));
    }

    @Test
    void anEventFdWakesEpollWaitOnceWithItsDataAndOneShotDisarmsIt() {
        int epfd = Epoll.create();
        int efd = Epoll.eventFd();
        assertTrue(epfd >= 0, "epoll_create1: " + epfd);
        assertTrue(efd >= 0, "eventfd: " + efd);
        try (Arena arena = Arena.ofConfined()) {
            Epoll.WaitState wait = Epoll.allocateWaitState(arena, 4);
            long data = 0x1122_3344_5566_7788L; // every byte distinct: a wrong offset shows
            assertEquals(0, Epoll.control(epfd, Epoll.CTL_ADD, efd, Epoll.EPOLLIN | Epoll.EPOLLONESHOT, data));
            assertEquals(0, Epoll.epollWait(wait, epfd, 0), "nothing written yet");

            assertEquals(0, Epoll.eventFdWrite(efd, 3));
            assertEquals(1, Epoll.epollWait(wait, epfd, 1000));
            assertEquals(data, Epoll.eventData(wait, 0));
            assertTrue((Epoll.eventMask(wait, 0) & Epoll.EPOLLIN) != 0);
            assertEquals(0, Epoll.epollWait(wait, epfd, 0), "one-shot: disarmed although still readable");

            assertEquals(0, Epoll.control(epfd, Epoll.CTL_MOD, efd, Epoll.EPOLLIN | Epoll.EPOLLONESHOT, 7));
            assertEquals(1, Epoll.epollWait(wait, epfd, 0), "re-armed while readable: reported at once");
            assertEquals(7, Epoll.eventData(wait, 0));

            assertEquals(3, Epoll.eventFdRead(efd), "the counter, reset by the read");
            assertEquals(0, Epoll.eventFdRead(efd), "EAGAIN: empty");
            assertEquals(0, Epoll.control(epfd, Epoll.CTL_MOD, efd, Epoll.EPOLLIN | Epoll.EPOLLONESHOT, 7));
            assertEquals(0, Epoll.epollWait(wait, epfd, 0), "drained: nothing to report");
            assertEquals(0, Epoll.control(epfd, Epoll.CTL_DEL, efd, 0, 0));
        } finally {
            Libc.close(efd);
            Libc.close(epfd);
        }
    }

    @Test
    void badFdsAnswerNegatedErrnos() {
        assertEquals(-9, Epoll.control(1_000_000, Epoll.CTL_ADD, 0, Epoll.EPOLLIN, 0), "EBADF");
        assertEquals(-9, Epoll.eventFdWrite(1_000_000, 1));
        assertEquals(-9, Epoll.eventFdRead(1_000_000));
    }
}
