package example.fallback;

/** The application's view of a transport: RDMA or TCP, chosen at run time. */
public interface Transport {
    /** @return what is used, for the log */
    String name();

    /**
     * Sends a message and returns what came back.
     *
     * @param message what to send
     * @return what came back
     * @throws Exception when the transport fails
     */
    String roundTrip(String message) throws Exception;
}
