/**
 * The library's JDK Flight Recorder events ({@code jdk.jfr}): connections established, rejected
 * and disconnected, queue pair state changes and errors, asynchronous events, failed completions
 * and the poller's dispatch latency. Each is named {@code dev.panamaverbs.<Name>}; the list with
 * every field is in {@code docs/observability.md}.
 *
 * <p>Not exported: a recording and {@code jdk.jfr.consumer} read the events by name and field,
 * never by class, so users need none of these types, and keeping them here leaves the fields free
 * to grow. The library commits them only through {@link dev.panamaverbs.jfr.FlightEvents}, which
 * tests whether a type is enabled before it allocates an event object: with recording off no event
 * object is ever made.
 */
package dev.panamaverbs.jfr;
