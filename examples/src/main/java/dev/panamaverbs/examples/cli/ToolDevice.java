package dev.panamaverbs.examples.cli;

import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.Verbs;
import java.util.List;
import java.util.function.Function;

/** The C tools' device option ({@code -d}): the named device, else the first one listed. */
public final class ToolDevice {
    private ToolDevice() {}

    /**
     * Opens the device named {@code name} (the first one listed when {@code null}) and builds what
     * the tool needs on its context; when that fails the context is closed before the failure
     * goes on.
     *
     * @param name      the device's name, or {@code null} for the first
     * @param resources builds the tool's resources on the opened context
     * @param <T>       what it builds
     * @return what {@code resources} built
     * @throws IllegalStateException with the C tools' message when there is no (such) device
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable (the cause)
     */
    public static <T> T open(String name, Function<Context, T> resources) {
        Context context = choose(name).open();
        try {
            return resources.apply(context);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    private static Device choose(String name) {
        Verbs.ensureAvailable(); // devices() answers empty without libibverbs: say why instead
        if (name != null) {
            return Verbs.device(name).orElseThrow(() -> new IllegalStateException("IB device " + name + " not found"));
        }
        List<Device> devices = Verbs.devices();
        if (devices.isEmpty()) {
            throw new IllegalStateException("No IB devices found");
        }
        return devices.getFirst();
    }
}
