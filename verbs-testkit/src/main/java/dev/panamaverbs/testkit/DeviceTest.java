package dev.panamaverbs.testkit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that needs an RDMA device: {@code @Test}, tagged {@value #TAG}, run by
 * {@link RdmaDeviceExtension}. The extension skips it, with the exact reason (printed once per
 * run on standard error, and in the test report), when libibverbs is unavailable or the device is
 * absent, or fails it instead under {@code panamaverbs.test.requireDevice=true}; injects
 * {@link TestDevice} and {@code Context} parameters; and turns a
 * {@code VerbsUnsupportedException} into a skip naming the verb.
 *
 * <p>The tag lets a build run device tests apart, e.g. Surefire's {@code excludedGroups} and
 * Failsafe's {@code groups}; without such a configuration they run with the other tests (and skip
 * where there is no device). verbs-testkit's README has a Surefire/Failsafe snippet to paste.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@Tag(DeviceTest.TAG)
@ExtendWith(RdmaDeviceExtension.class)
public @interface DeviceTest {
    /** The JUnit tag of device tests, for a build's include/exclude configuration. */
    String TAG = "device";
}
