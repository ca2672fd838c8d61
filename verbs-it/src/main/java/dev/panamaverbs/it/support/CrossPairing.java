package dev.panamaverbs.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A test method that runs one cross pairing of an interop test (our Java program on one side,
 * the C tool on the other): it runs at the same time as its class's other cross pairing, so that
 * while host B starts the Java server's JVM of the one, host A starts the Java client's JVM of the
 * other (each VM has one emulated CPU; one pairing at a time left one of them idle). A test that
 * must run alone, the Java-with-Java pairing, holds {@link #PAIRINGS} exclusively
 * ({@code @ResourceLock(CrossPairing.PAIRINGS)}). Each pairing keeps its own port, peers and
 * {@link TwoHosts}; the device launcher enables JUnit's parallel execution with every other class
 * and method kept on one thread ({@code scripts/device-run.sh}).
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(value = CrossPairing.PAIRINGS, mode = ResourceAccessMode.READ)
public @interface CrossPairing {
    /** The resource two cross pairings share and a pairing that runs alone locks. */
    String PAIRINGS = "panamaverbs.interop-pairings";
}
