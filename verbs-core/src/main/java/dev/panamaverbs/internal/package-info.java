/**
 * Helpers the packages of {@code dev.panamaverbs.core} share: native call checks, event-file
 * waits, size limits, request chaining, and {@link dev.panamaverbs.internal.CoreAccess}, the one
 * door to the resource tree's internals. Not exported: not API.
 */
package dev.panamaverbs.internal;
