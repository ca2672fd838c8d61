package dev.panamaverbs.it.support;

import java.util.Optional;

/**
 * Host A's last step in a split two-host run ({@link HostShare}), before it tells host B's agent
 * to stop: waits until B's share of the one-host tests is done, which B signals by starting its
 * agent, so that host A's end never cuts B's share short. What B's share found is in its own
 * report (the run's summary reads it); this only waits, and says so.
 * <pre>
 * java @STAGE/peer.args dev.panamaverbs.it.support.AwaitPeerAgent
 * </pre>
 * Exits 0 when B's agent is up, 1 when B stopped or did not get there in time (with the ends of
 * B's console and output), 2 outside a two-host run.
 */
public final class AwaitPeerAgent {
    private AwaitPeerAgent() {}

    /**
     * Waits for host B's agent.
     *
     * @param args none
     */
    public static void main(String[] args) {
        Optional<TwoHostEnvironment> environment = TwoHostEnvironment.fromSystem();
        if (environment.isEmpty() || !environment.get().isHostA()) {
            System.err.println("AwaitPeerAgent runs on host A of a two-host run");
            System.exit(2);
        }
        Optional<String> problem = TwoHosts.agentProblem(environment.get());
        System.out.println(problem.map(why -> "host B's share of the one-host tests: " + why)
                .orElse("host B's share of the one-host tests is done (its peer agent is up)"));
        System.exit(problem.isPresent() ? 1 : 0);
    }
}
