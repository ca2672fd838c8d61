package dev.panamaverbs.it.support;

import java.util.List;
import java.util.OptionalLong;

/**
 * A peer whose output this JVM collects as it comes ({@link PeerOutput}): its label, output,
 * first-output time and report block, for the peer kinds that differ only in how they run and
 * end (a child process, a job of a resident program).
 */
public abstract class CollectingPeerProcess implements PeerProcess {
    private final String label;
    private final String where;
    private final List<String> command;
    /** What the peer printed; the subclass adds to it as it reads. */
    protected final PeerOutput collected = new PeerOutput();

    /**
     * @param label   what the test calls the peer
     * @param where   where it runs, for the report ("this host", "resident twin on host B")
     * @param command its command line, for the report
     */
    protected CollectingPeerProcess(String label, String where, List<String> command) {
        this.label = label;
        this.where = where;
        this.command = List.copyOf(command);
    }

    @Override
    public final String label() {
        return label;
    }

    @Override
    public final String output() {
        return collected.text();
    }

    @Override
    public final OptionalLong firstOutputAt() {
        return collected.firstAt();
    }

    @Override
    public final String describe() {
        return PeerProcess.reportBlock(label, where, command, output());
    }
}
