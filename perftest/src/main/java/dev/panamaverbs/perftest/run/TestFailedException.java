package dev.panamaverbs.perftest.run;

/** The test could not go on: a completion in error, or a wait that ran out of time. */
public final class TestFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TestFailedException(String message) {
        super(message);
    }
}
