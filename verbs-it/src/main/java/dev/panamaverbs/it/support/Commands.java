package dev.panamaverbs.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Short commands the device tests run on the test host (e.g. {@code rdma resource show}), bounded in time. */
public final class Commands {
    private Commands() {}

    /**
     * The combined output of {@code command}, which must exit 0 within {@code seconds}.
     *
     * @throws IllegalStateException when it cannot start, times out (it is killed) or exits non-zero
     */
    public static String output(int seconds, String... command) {
        String name = String.join(" ", command);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(name + " did not finish in " + seconds + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + name, e);
        }
    }
}
