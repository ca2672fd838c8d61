package dev.panamaverbs.messaging.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.values.Errno;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link RegistrationStep} without a device: it records what was registered and deregistered,
 * refuses like the kernel ({@code ENOMEM}) above a pinned-bytes limit, and counts a violation
 * when a registration that a test marked in use is deregistered.
 */
final class RegistrationFakeStep implements RegistrationStep {
    final List<Fake> registered = new ArrayList<>();
    final List<Fake> deregistered = new ArrayList<>();
    final AtomicInteger violations = new AtomicInteger();
    final AtomicLong pinned = new AtomicLong();
    /** The fake kernel's memory lock limit in bytes. */
    volatile long kernelLimit = Long.MAX_VALUE;

    @Override
    public synchronized Registered register(MemorySegment memory) {
        long bytes = RegistrationCache.pages(memory.address(), memory.address() + memory.byteSize());
        if (pinned.get() + bytes > kernelLimit) {
            throw new VerbsException("ibv_reg_mr", Errno.ENOMEM);
        }
        pinned.addAndGet(bytes);
        Fake fake = new Fake(memory.address(), memory.byteSize(), bytes);
        registered.add(fake);
        return fake;
    }

    synchronized int live() {
        return registered.size() - deregistered.size();
    }

    /** The fake registration behind a lease. */
    static Fake of(RegistrationLease lease) {
        return (Fake) lease.entry().registered;
    }

    final class Fake implements Registered {
        final long address;
        final long length;
        final long bytes;
        /** Set by tests while they "post" through the registration. */
        final AtomicInteger inUse = new AtomicInteger();
        private boolean gone;

        Fake(long address, long length, long bytes) {
            this.address = address;
            this.length = length;
            this.bytes = bytes;
        }

        @Override
        public MemoryRegion region() {
            return null;
        }

        @Override
        public void deregister() {
            synchronized (RegistrationFakeStep.this) {
                assertEquals(false, gone, "deregistered twice");
                gone = true;
                if (inUse.get() != 0) {
                    violations.incrementAndGet();
                }
                pinned.addAndGet(-bytes);
                deregistered.add(this);
            }
        }

        boolean isDeregistered() {
            synchronized (RegistrationFakeStep.this) {
                return gone;
            }
        }
    }
}
