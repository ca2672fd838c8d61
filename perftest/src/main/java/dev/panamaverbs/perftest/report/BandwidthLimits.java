package dev.panamaverbs.perftest.report;

/**
 * perftest's verifier limits, {@code -w} (bandwidth, in the report's unit) and {@code -y}
 * (message rate, Mpps): each bandwidth row printed is checked ({@code print_full_bw_report});
 * a limit passes when any row reached it; at the test's end a limit no row reached fails the
 * run with perftest's text. As in perftest 4.5, both verdicts are given only when {@code -w}
 * was given (its test's end reads {@code is_limit_bw} for the message rate too), so {@code -y}
 * alone never fails a run.
 */
public final class BandwidthLimits {
    private final double limitBw;
    private final double limitMsgRate;

    /**
     * @param limitBw      {@code -w}; negative when not given
     * @param limitMsgRate {@code -y}; negative when not given
     */
    public BandwidthLimits(double limitBw, double limitMsgRate) {
        this.limitBw = limitBw;
        this.limitMsgRate = limitMsgRate;
    }

    /** Whether a row reached each limit so far (perftest's {@code is_bw_limit_passed}, {@code is_msgrate_limit_passed}). */
    private boolean bwPassed;
    private boolean msgRatePassed;

    /** Checks a printed row's average bandwidth and message rate. */
    public void check(double average, double messageRate) {
        bwPassed |= !(limitBw > average);
        msgRatePassed |= !(limitMsgRate > messageRate);
    }

    /** perftest's verdict at the test's end: its error line, or {@code null} when the run passed. */
    public String failure() {
        if (limitBw < 0) {
            return null;
        }
        if (!bwPassed) {
            return "Error: BW result is below bw limit";
        }
        return msgRatePassed ? null : "Error: Msg rate  is below msg_rate limit";
    }
}
