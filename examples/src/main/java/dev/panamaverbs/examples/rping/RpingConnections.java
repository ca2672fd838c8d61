package dev.panamaverbs.examples.rping;

import dev.panamaverbs.cm.ConnectionOptions;
import java.time.Duration;

/** The rdma_cm parameters both rping sides use. */
final class RpingConnections {
    /** rping's send queue depth; its completion queue holds twice that. */
    static final int SQ_DEPTH = 16;
    /** rping's receive queue depth. */
    static final int RQ_DEPTH = 2;

    private RpingConnections() {}

    /**
     * rping's {@code rdma_conn_param}: one RDMA READ outstanding each way (the server READs the
     * client's buffer), RNR retry 7. The retry count stays at the library's bounded default (rping
     * asks 7, which on rxe retries for ever), so a dead peer is noticed.
     */
    static ConnectionOptions options(Duration timeout) {
        return ConnectionOptions.builder().responderResources(1).initiatorDepth(1).rnrRetryCount(7)
                .resolveTimeout(timeout).connectTimeout(timeout).queueDepth(SQ_DEPTH, RQ_DEPTH).maxSge(1)
                .completionQueueSize(SQ_DEPTH * 2).backlog(3).build();
    }
}
