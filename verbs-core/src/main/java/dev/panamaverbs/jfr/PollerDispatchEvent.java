package dev.panamaverbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * {@code dev.panamaverbs.PollerDispatch}: one sampled dispatch of the event poller, from the
 * readiness it saw to the waiters it woke or the handler it ran.
 */
@Name("dev.panamaverbs.PollerDispatch")
@Label("Poller Dispatch")
@Description("A sample (one dispatch in " + PollerDispatchEvent.SAMPLE_INTERVAL + ") of the event poller's dispatch latency:"
        + " from epoll_wait returning a ready source to its waiters woken or its handler run")
@Category({"panama-verbs", "Poller"})
@StackTrace(false)
final class PollerDispatchEvent extends Event {
    /** One dispatch in this many (a power of two) is recorded: the event is a sample, not a log. */
    static final int SAMPLE_INTERVAL = 64;

    @Label("Source")
    @Description("The kind of event source: completion channel, rdma_cm channel, async events")
    String source;

    @Label("File Descriptor")
    @Description("The event source's file descriptor")
    int fd;

    @Label("Latency")
    @Description("From epoll_wait returning the source ready to the dispatch done")
    @Timespan(Timespan.NANOSECONDS)
    long latency;

    @Label("Woken")
    @Description("How many waiters or handlers the dispatch woke or ran")
    int woken;
}
