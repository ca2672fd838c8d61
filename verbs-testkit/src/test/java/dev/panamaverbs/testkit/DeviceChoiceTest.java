package dev.panamaverbs.testkit;

import dev.panamaverbs.VerbsException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The skip reasons and the chosen device, from fake inventories: no device needed. */
class DeviceChoiceTest {

    private static DeviceInventory unavailable(String cause) {
        return inventory(Optional.of(cause), () -> {
            throw new AssertionError("devices listed although libibverbs is unavailable");
        });
    }

    private static DeviceInventory listing(String... names) {
        return inventory(Optional.empty(), () -> List.of(names));
    }

    private static DeviceInventory inventory(Optional<String> cause, java.util.function.Supplier<List<String>> names) {
        return new FakeInventory(cause, names, OptionalInt.empty()); // the interface's default: no typed GID
    }

    private static DeviceSettings settings(Map<String, String> properties, Map<String, String> environment) {
        return DeviceSettings.read(properties::get, environment::get);
    }

    private static final DeviceSettings DEFAULTS = settings(Map.of(), Map.of());

    /** A device list whose port 1 has its RoCE v2 IPv4 GID at {@code roceIndex} (none if negative). */
    private static DeviceInventory withRoceGid(int roceIndex, String... names) {
        return new FakeInventory(Optional.empty(), () -> List.of(names),
                roceIndex < 0 ? OptionalInt.empty() : OptionalInt.of(roceIndex));
    }

    @Test
    void gidIndexIsChosenByTypeWhenNotAskedFor() {
        assertEquals(new DeviceChoice.Use(new TestDevice("rxe0", 1, 3)),
                DeviceChoice.decide(withRoceGid(3, "rxe0"), DEFAULTS));
    }

    @Test
    void gidIndexFallsBackToZeroWithoutARoceV2Ipv4Gid() {
        assertEquals(new DeviceChoice.Use(new TestDevice("mlx5_0", 1, 0)),
                DeviceChoice.decide(withRoceGid(-1, "mlx5_0"), DEFAULTS));
    }

    @Test
    void gidIndexAskedForWinsOverTheTypedChoice() {
        assertEquals(new DeviceChoice.Use(new TestDevice("rxe0", 1, 4)),
                DeviceChoice.decide(withRoceGid(3, "rxe0"), settings(Map.of(), Map.of("VERBS_TEST_GID_INDEX", "4"))));
    }

    @Test
    void unavailableLibraryQuotesTheLoadersCause() {
        DeviceChoice choice = DeviceChoice.decide(
                unavailable("libibverbs.so.1: cannot open shared object file: No such file or directory"), DEFAULTS);
        assertEquals(new DeviceChoice.Skip("libibverbs is unavailable: libibverbs.so.1: cannot open shared"
                + " object file: No such file or directory"), choice);
    }

    @Test
    void noDeviceSaysSoAndHowToGetOne() {
        assertEquals(new DeviceChoice.Skip("no RDMA device: libibverbs lists none" + DeviceChoice.HOW_TO_GET_ONE),
                DeviceChoice.decide(listing(), DEFAULTS));
    }

    @Test
    void failedListingQuotesTheVerbAndErrno() {
        DeviceInventory failing = inventory(Optional.empty(), () -> {
            throw new VerbsException("ibv_get_device_list", 38);
        });
        assertEquals(new DeviceChoice.Skip("no RDMA device: listing devices failed: ibv_get_device_list failed:"
                + " errno 38 (ENOSYS: Function not implemented)" + DeviceChoice.HOW_TO_GET_ONE),
                DeviceChoice.decide(failing, DEFAULTS));
    }

    @Test
    void absentNamedDeviceNamesWhereTheNameCameFromAndWhatExists() {
        DeviceSettings wanted = settings(Map.of(), Map.of("VERBS_TEST_DEVICE", "mlx5_0"));
        assertEquals(new DeviceChoice.Skip("RDMA device 'mlx5_0' (from environment variable VERBS_TEST_DEVICE)"
                        + " is absent; libibverbs lists: rxe0, rxe1"),
                DeviceChoice.decide(listing("rxe0", "rxe1"), wanted));
    }

    @Test
    void propertyWinsOverEnvironment() {
        DeviceSettings wanted = settings(Map.of("panamaverbs.test.device", "rxe1"), Map.of("VERBS_TEST_DEVICE", "rxe0"));
        assertEquals(new DeviceChoice.Use(new TestDevice("rxe1", 1, 1)),
                DeviceChoice.decide(withRoceGid(1, "rxe0", "rxe1"), wanted));
    }

    @Test
    void withoutANameTheFirstDeviceIsUsed() {
        assertEquals(new DeviceChoice.Use(new TestDevice("mlx5_0", 1, 0)),
                DeviceChoice.decide(listing("mlx5_0", "rxe0"), DEFAULTS));
    }

    @Test
    void portAndGidIndexComeFromTheSettings() {
        DeviceSettings wanted = settings(Map.of("panamaverbs.test.port", "2"), Map.of("VERBS_TEST_GID_INDEX", "3"));
        assertEquals(new DeviceChoice.Use(new TestDevice("rxe0", 2, 3)),
                DeviceChoice.decide(listing("rxe0"), wanted));
    }
}
