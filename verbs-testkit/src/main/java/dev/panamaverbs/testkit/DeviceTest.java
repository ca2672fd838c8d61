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
 * A test that needs an RDMA device. Tagged {@code device}, so Surefire leaves it out and
 * {@code ./verbs test} runs it on a local device or inside the SoftRoCE VM. The
 * {@link RdmaDeviceExtension} skips it, with the exact reason, when libibverbs is unavailable or
 * the device is absent; injects a {@link TestDevice} parameter; and turns a
 * {@code VerbsUnsupportedException} into a skip naming the verb.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@Tag(DeviceTest.TAG)
@ExtendWith(RdmaDeviceExtension.class)
public @interface DeviceTest {
    /** The JUnit tag of device tests; Surefire excludes it, the device run includes it. */
    String TAG = "device";
}
