/**
 * Messages over RDMA: credit-based message channels, rendezvous for large messages,
 * request/response, and a registration cache that keeps registrations under the memory lock
 * limit. Built only on the public verbs API; see {@code docs/messaging.md} for the wire format.
 */
package dev.panamaverbs.messaging;
