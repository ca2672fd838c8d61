package dev.panamaverbs.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;

/**
 * Small concurrency helpers the resource classes share: the {@link VarHandle} of a field for
 * compare-and-set, and an uninterruptible latch wait for closes that must finish.
 */
public final class Handles {
    private Handles() {
    }

    /**
     * The {@link VarHandle} of field {@code name} of the lookup's own class, for a class's static
     * initializer; a missing field is a build error, so it becomes an {@link ExceptionInInitializerError}.
     *
     * @param lookup the class's own {@code MethodHandles.lookup()}
     * @param name   the field's name
     * @param type   the field's type
     * @return the field's handle
     */
    public static VarHandle field(MethodHandles.Lookup lookup, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(lookup.lookupClass(), name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Waits for {@code latch} without giving up on interrupt (a close must not return before what
     * it frees is gone); the interrupt is kept for the caller.
     *
     * @param latch the latch to wait for
     */
    public static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
