package dev.panamaverbs.harness;

/** A harness step that cannot go on; its message says what to do, and the run stops with it. */
final class HarnessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HarnessException(String message) {
        super(message);
    }

    HarnessException(String message, Throwable cause) {
        super(message, cause);
    }
}
