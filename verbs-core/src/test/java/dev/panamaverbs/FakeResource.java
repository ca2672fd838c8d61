package dev.panamaverbs;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A resource whose "native object" is a flag, shared by the resource-tree tests: destroy records
 * the order in {@code destroyed}, counts, checks no use is live, and leaves the resource it was
 * added to as a user ({@link #usedResource}), as a bound memory window leaves its region.
 */
final class FakeResource extends VerbsResource {
    final String name;
    final List<String> destroyed;
    final AtomicInteger usesInFlight = new AtomicInteger();
    final AtomicBoolean destroyedDuringUse = new AtomicBoolean();
    final AtomicInteger destroyCount = new AtomicInteger();
    /** The resource this one was added to as a user; it leaves it when destroyed. */
    VerbsResource usedResource;
    /** Runs inside destroy, before it records anything: a slow destroy verb, for the close-racing-close tests. */
    volatile Runnable duringDestroy = () -> {};

    /** Not yet registered with its dependencies: see {@link #open}. */
    FakeResource(String name, List<String> destroyed, VerbsResource... dependencies) {
        super("Fake", MemorySegment.NULL, dependencies);
        this.name = name;
        this.destroyed = destroyed;
    }

    /** A registered fake, as a verb's wrapper is once created. */
    static FakeResource open(String name, List<String> destroyed, VerbsResource... dependencies) {
        FakeResource fake = new FakeResource(name, destroyed, dependencies);
        fake.register();
        return fake;
    }

    /** A "native call": acquire, mark in use, work, release. */
    void use(Runnable work) {
        acquire();
        try {
            usesInFlight.incrementAndGet();
            work.run();
        } finally {
            usesInFlight.decrementAndGet();
            release();
        }
    }

    @Override
    protected void destroy() {
        duringDestroy.run();
        if (usesInFlight.get() != 0) {
            destroyedDuringUse.set(true);
        }
        destroyCount.incrementAndGet();
        synchronized (destroyed) {
            destroyed.add(name);
        }
        if (usedResource != null) {
            usedResource.removeUser(this);
        }
    }

    @Override
    protected String describe() {
        return name;
    }
}
