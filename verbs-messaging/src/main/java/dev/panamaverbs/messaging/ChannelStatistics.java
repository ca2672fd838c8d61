package dev.panamaverbs.messaging;

/**
 * A snapshot of a {@link MessageChannel}'s counters ({@link MessageChannel#statistics()}).
 *
 * @param messagesSent the DATA, REQUEST and RESPONSE messages this side posted
 * @param messagesReceived the DATA, REQUEST and RESPONSE messages that arrived
 * @param creditMessagesSent the explicit CREDIT messages this side sent
 * @param creditMessagesReceived the explicit CREDIT messages that arrived
 */
public record ChannelStatistics(long messagesSent, long messagesReceived, long creditMessagesSent,
        long creditMessagesReceived) {
}
