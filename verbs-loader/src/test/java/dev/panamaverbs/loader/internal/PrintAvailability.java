package dev.panamaverbs.loader.internal;

/** Run in a child JVM by {@link NativeAccessDeniedTest}: prints what the process-wide probe says. */
public final class PrintAvailability {
    private PrintAvailability() {}

    public static void main(String[] args) {
        System.out.println("available=" + LibIbverbs.LIBRARY.isAvailable());
        System.out.println("cause=" + LibIbverbs.LIBRARY.unavailabilityCause().orElse(""));
    }
}
