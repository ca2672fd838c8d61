/**
 * The registration cache: registers ({@code ibv_reg_mr}) a caller's memory on first use and
 * reuses it, evicts least recently used registrations under a byte budget (by default a share of
 * {@code RLIMIT_MEMLOCK}), never evicts one that is leased (in flight), and names the limit and
 * its fix when the memory lock limit refuses. See {@code docs/messaging.md}, "Registration cache".
 */
package dev.panamaverbs.messaging.registration;
