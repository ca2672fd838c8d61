/**
 * The plain values the verbs take and return: device, port and queue-pair attributes, options,
 * states, types, flags, opcodes, completion statuses, GIDs and errno numbers
 * ({@link dev.panamaverbs.values.Errno}). No value here owns a native resource; they are immutable
 * and safe to share between threads. The one native call is libibverbs' own text for a value
 * ({@code describe()} of {@link dev.panamaverbs.values.AsyncEventType},
 * {@link dev.panamaverbs.values.CompletionStatus}, {@link dev.panamaverbs.values.NodeType} and
 * {@link dev.panamaverbs.values.PortState}, through {@code ibv_*_str}).
 */
package dev.panamaverbs.values;
