package dev.panamaverbs.it.support;

/**
 * How a peer process ended.
 *
 * @param exitStatus its exit status (137 when it was killed)
 * @param output     what it printed, stdout and stderr merged
 */
public record PeerResult(int exitStatus, String output) {
    /**
     * Whether it exited 0.
     *
     * @return whether it exited 0.
     */
    public boolean succeeded() {
        return exitStatus == 0;
    }
}
