package dev.panamaverbs.it.support;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * Host A's class order in a split two-host run ({@link HostShare}): its share of the one-host
 * classes first, then the two-host classes ({@code *TwoHostTest}), each group in Jupiter's own
 * order. The two-host tests wait for host B's agent, which starts once B's share is done; run
 * first, they would wait while host A's share had not started. Set as Jupiter's
 * {@code junit.jupiter.testclass.order.default} by scripts/device-run.sh.
 */
public final class OneHostClassesFirst implements ClassOrderer {
    /** Made by Jupiter. */
    public OneHostClassesFirst() {}

    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(Comparator.comparing(
                (ClassDescriptor descriptor) -> descriptor.getTestClass().getName().endsWith(TwoHostTest.CLASS_SUFFIX)));
    }
}
