package example.fallback;

import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.cm.RdmaCm;

/**
 * A user's application built for Java 17 that uses RDMA where it can and TCP where it cannot
 * (docs/multi-release.md). This class and the TCP path are compiled with --release 17 and see
 * only panama-verbs' probe (the jar's Java 17 base layer); the RDMA path (src/main/java22) is
 * compiled with --release 22 and loaded only after the probe said yes, so that JDK 17 never
 * meets a class file it cannot read.
 */
public final class FallbackApp {
    private FallbackApp() {}

    public static void main(String[] args) throws Exception {
        System.out.println("java " + Runtime.version().feature());
        System.out.println("verbs available: " + Verbs.isAvailable());
        System.out.println("verbs cause: " + Verbs.unavailabilityCause().orElse("none"));
        System.out.println("rdma_cm available: " + RdmaCm.isAvailable());
        System.out.println("rdma_cm cause: " + RdmaCm.unavailabilityCause().orElse("none"));
        try {
            Verbs.ensureAvailable();
            System.out.println("ensureAvailable: returned");
        } catch (VerbsUnavailableException e) {
            System.out.println("ensureAvailable: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        Transport transport = choose();
        System.out.println("transport: " + transport.name());
        System.out.println("echo: " + transport.roundTrip("hello"));
    }

    /** RDMA when the library is usable and lists a device, else TCP. */
    private static Transport choose() throws ReflectiveOperationException {
        if (Verbs.isAvailable() && !Verbs.devices().isEmpty()) {
            // By name: only JDK 22 and newer ever load this class (its class file is version 66).
            return Class.forName("example.fallback.RdmaTransport")
                    .asSubclass(Transport.class).getDeclaredConstructor().newInstance();
        }
        return new TcpTransport();
    }
}
