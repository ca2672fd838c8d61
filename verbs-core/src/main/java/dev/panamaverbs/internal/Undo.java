package dev.panamaverbs.internal;

import java.util.function.Supplier;

/** Set-up steps that undo what they made when they fail. */
public final class Undo {
    private Undo() {}

    /**
     * Runs {@code step} on a just-created resource; when it fails, runs {@code undo} (destroying
     * what was created) and throws the step's failure with the undo's suppressed into it.
     */
    public static void orUndo(Runnable step, Runnable undo) {
        orUndo(() -> {
            step.run();
            return null;
        }, undo);
    }

    /**
     * Like {@link #orUndo(Runnable, Runnable)}, for a step that makes something: returns what
     * {@code step} returns.
     */
    public static <T> T orUndo(Supplier<T> step, Runnable undo) {
        try {
            return step.get();
        } catch (RuntimeException e) {
            try {
                undo.run();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
