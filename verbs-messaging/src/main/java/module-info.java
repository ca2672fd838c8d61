/**
 * Messages over RDMA, on verbs-core's public API only: {@code dev.panamaverbs.messaging} holds
 * message channels with credit-based flow control (no RNR retry is ever needed) and
 * request/response; {@code dev.panamaverbs.messaging.registration} a registration cache under the
 * memory lock limit.
 */
module dev.panamaverbs.messaging {
    requires transitive dev.panamaverbs.core;
    requires org.slf4j;

    exports dev.panamaverbs.messaging;
    exports dev.panamaverbs.messaging.registration;
}
