/**
 * The plain values the verbs take and return: device, port and queue-pair attributes, options,
 * states, types, flags, opcodes, completion statuses, GIDs and errno numbers
 * ({@link dev.panamaverbs.values.Errno}). No value here owns a native resource or makes a native
 * call; they are immutable and safe to share between threads.
 */
package dev.panamaverbs.values;
