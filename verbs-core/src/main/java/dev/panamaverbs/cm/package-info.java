/**
 * Connecting queue pairs: rdma_cm ({@code librdmacm}) through {@link dev.panamaverbs.cm.ConnectionId}
 * and the high-level {@link dev.panamaverbs.cm.RdmaListener}, {@link dev.panamaverbs.cm.RdmaConnection}
 * and {@link dev.panamaverbs.cm.RdmaDatagramSocket}, and the endpoint exchange
 * ({@link dev.panamaverbs.cm.EndpointExchange}) that swaps {@link dev.panamaverbs.cm.EndpointInfo}
 * over a TCP socket. "Endpoint" means one thing here: a queue pair's address as its peer needs it.
 * This package builds on the resource tree's public API; the resource package never refers back.
 */
package dev.panamaverbs.cm;
