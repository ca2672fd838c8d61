package dev.panamaverbs.messaging;

/**
 * A snapshot of a {@link MessageChannel}'s credits, pending requests and counters
 * ({@link MessageChannel#statistics()}).
 *
 * @param availableCredits the credits left to spend (0..the peer's window)
 * @param peerCredits the window the peer advertised
 * @param pendingRequests the requests waiting for their responses
 * @param messagesSent the DATA, REQUEST and RESPONSE messages this side posted
 * @param messagesReceived the DATA, REQUEST and RESPONSE messages that arrived
 * @param creditMessagesSent the explicit CREDIT messages this side sent
 * @param creditMessagesReceived the explicit CREDIT messages that arrived
 */
public record ChannelStatistics(int availableCredits, int peerCredits, int pendingRequests, long messagesSent,
        long messagesReceived, long creditMessagesSent, long creditMessagesReceived) {
}
