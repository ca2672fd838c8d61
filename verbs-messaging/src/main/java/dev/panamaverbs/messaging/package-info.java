/**
 * Message channels over RDMA: rdma_cm connections whose sends never go out without a receive
 * credit from the peer (so no RNR retry is ever needed), credits returned piggy-backed or by a
 * credit message, zero-copy or copied sends of up to one buffer, larger messages by rendezvous
 * (the receiver pulls them with RDMA READ), a small request/response (correlation ids,
 * futures, timeouts), and receive buffers that many channels of a device share through one SRQ
 * ({@link dev.panamaverbs.messaging.SharedReceivePool}). Built only on the public verbs API; see
 * {@code docs/messaging.md} for the wire format and the credit protocol.
 */
package dev.panamaverbs.messaging;
