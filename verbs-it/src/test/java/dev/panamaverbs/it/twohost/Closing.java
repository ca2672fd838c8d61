package dev.panamaverbs.it.twohost;

/** Closing what a test class opened, in order, each even when one before it failed. */
final class Closing {
    private Closing() {}

    /** Closes each non-null resource in the order given; the first failure is thrown after all were tried. */
    static void inOrder(AutoCloseable... resources) throws Exception {
        Exception first = null;
        for (AutoCloseable resource : resources) {
            try {
                if (resource != null) {
                    resource.close();
                }
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
