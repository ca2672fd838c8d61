package dev.panamaverbs.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The Debian multiarch triplet of this machine (x86_64-linux-gnu, aarch64-linux-gnu ...). */
final class Multiarch {
    private Multiarch() {}

    static final String FALLBACK = "x86_64-linux-gnu";
    private static String triplet;

    /** {@code gcc -print-multiarch}, or {@value #FALLBACK} if gcc is missing or prints nothing. */
    static synchronized String triplet() {
        if (triplet == null) {
            triplet = FALLBACK;
            try {
                Process p = new ProcessBuilder("gcc", "-print-multiarch").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (p.waitFor() == 0 && out.matches("[A-Za-z0-9_.-]+")) {
                    triplet = out;
                }
            } catch (IOException e) {
                // no gcc: the fallback
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return triplet;
    }
}
