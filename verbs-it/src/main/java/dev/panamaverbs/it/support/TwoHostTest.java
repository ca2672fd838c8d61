package dev.panamaverbs.it.support;

import dev.panamaverbs.testkit.DeviceTest;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A device test across two hosts: {@code @Test}, the tags {@code device} and {@code two-host},
 * and the {@link TwoHostExtension}, which injects {@link TwoHosts} and skips the test (reason
 * starting "two-host:") outside the two-VM harness. Its class must be named {@code *TwoHostTest}:
 * ./verbs test's summary counts two-host tests by that name, and fails under CI when one was
 * skipped. A class whose {@code @BeforeAll} takes {@link TwoHosts} (one peer for all its tests)
 * also carries {@code @ExtendWith(TwoHostExtension.class)}.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@Tag(DeviceTest.TAG)
@Tag(TwoHostTest.TAG)
@ExtendWith(TwoHostExtension.class)
public @interface TwoHostTest {
    /** The JUnit tag of two-host tests (besides {@link DeviceTest#TAG}). */
    String TAG = "two-host";
    /** How every skip reason of a two-host test starts; the summary looks for it. */
    String SKIP_PREFIX = "two-host: ";
    /** The suffix of every two-host test class's name; the summary counts by it. */
    String CLASS_SUFFIX = "TwoHostTest";
}
