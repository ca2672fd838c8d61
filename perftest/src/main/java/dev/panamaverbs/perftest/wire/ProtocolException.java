package dev.panamaverbs.perftest.wire;

import java.io.IOException;

/** What the peer sent (or did not send) breaks perftest's out-of-band protocol; the message says how. */
public class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
