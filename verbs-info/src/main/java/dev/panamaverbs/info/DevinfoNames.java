package dev.panamaverbs.info;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The names {@code ibv_devinfo} prints for encoded values (its {@code *_str} functions and flag
 * lists, rdma-core {@code libibverbs/examples/devinfo.c}), spelled exactly as it spells them
 * (typos included) so that verbs-info's lines compare equal to its lines.
 */
final class DevinfoNames {
    /** A named bit of a flag word. */
    record Flag(long bit, String name) {}

    /** {@code print_device_cap_flags}: the 32-bit {@code device_cap_flags}, in print order. */
    static final List<Flag> DEVICE_CAP_FLAGS = List.of(
            new Flag(1L, "RESIZE_MAX_WR"), new Flag(1L << 1, "BAD_PKEY_CNTR"), new Flag(1L << 2, "BAD_QKEY_CNTR"),
            new Flag(1L << 3, "RAW_MULTI"), new Flag(1L << 4, "AUTO_PATH_MIG"), new Flag(1L << 5, "CHANGE_PHY_PORT"),
            new Flag(1L << 6, "UD_AV_PORT_ENFORCE"), new Flag(1L << 7, "CURR_QP_STATE_MOD"),
            new Flag(1L << 8, "SHUTDOWN_PORT"), new Flag(1L << 9, "INIT_TYPE"), new Flag(1L << 10, "PORT_ACTIVE_EVENT"),
            new Flag(1L << 11, "SYS_IMAGE_GUID"), new Flag(1L << 12, "RC_RNR_NAK_GEN"), new Flag(1L << 13, "SRQ_RESIZE"),
            new Flag(1L << 14, "N_NOTIFY_CQ"), new Flag(1L << 17, "MEM_WINDOW"), new Flag(1L << 18, "UD_IP_CSUM"),
            new Flag(1L << 20, "XRC"), new Flag(1L << 21, "MEM_MGT_EXTENSIONS"), new Flag(1L << 23, "MEM_WINDOW_TYPE_2A"),
            new Flag(1L << 24, "MEM_WINDOW_TYPE_2B"), new Flag(1L << 25, "RC_IP_CSUM"), new Flag(1L << 26, "RAW_IP_CSUM"),
            new Flag(1L << 29, "MANAGED_FLOW_STEERING"));

    /** {@code print_device_cap_flags_ex}: the upper 32 bits of {@code device_cap_flags_ex}. */
    static final List<Flag> DEVICE_CAP_FLAGS_EX = List.of(
            new Flag(1L << 34, "RAW_SCATTER_FCS"), new Flag(1L << 36, "PCI_WRITE_END_PADDING"));

    /** {@code print_odp_caps}: {@code odp_caps.general_caps}. */
    static final List<Flag> ODP_GENERAL = List.of(new Flag(1, "ODP_SUPPORT"), new Flag(2, "ODP_SUPPORT_IMPLICIT"));

    /** {@code print_odp_trans_caps}: one transport's ODP bits. */
    static final List<Flag> ODP_TRANSPORT = List.of(
            new Flag(1, "SUPPORT_SEND"), new Flag(2, "SUPPORT_RECV"), new Flag(4, "SUPPORT_WRITE"),
            new Flag(8, "SUPPORT_READ"), new Flag(16, "SUPPORT_ATOMIC"), new Flag(32, "SUPPORT_SRQ"));

    /** {@code print_raw_packet_caps}. */
    static final List<Flag> RAW_PACKET = List.of(
            new Flag(1, "C-VLAN stripping offload"), new Flag(2, "Scatter FCS offload"),
            new Flag(4, "IP csum offload"), new Flag(8, "Delay drop"));

    /** QP types in {@code supported_qpts} masks ({@code 1 << IBV_QPT_RAW_PACKET}, {@code 1 << IBV_QPT_UD}). */
    static final List<Flag> QP_TYPES = List.of(new Flag(1L << 8, "SUPPORT_RAW_PACKET"), new Flag(1L << 4, "SUPPORT_UD"));

    private DevinfoNames() {}

    /** The names of the set flags, in the list's order. */
    static List<String> names(long value, List<Flag> flags) {
        List<String> names = new ArrayList<>();
        for (Flag flag : flags) {
            if ((value & flag.bit()) != 0) {
                names.add(flag.name());
            }
        }
        return names;
    }

    /** The bits of {@code value} that no flag of the list names. */
    static long unknown(long value, List<Flag> flags) {
        long known = 0;
        for (Flag flag : flags) {
            known |= flag.bit();
        }
        return value & ~known;
    }

    /** Names of encoded values, as one of devinfo.c's {@code *_str} switches: the name of each known code, else one text. */
    record Codes(String otherwise, Map<Integer, String> names) {
        /** The name of {@code code}, or {@link #otherwise} when it has none. */
        String name(int code) {
            return names.getOrDefault(code, otherwise);
        }
    }

    /** {@code transport_str}. */
    static final Codes TRANSPORT = new Codes("invalid transport",
            Map.of(0, "InfiniBand", 1, "iWARP", 2, "usNIC", 3, "usNIC UDP"));

    /** {@code port_state_str}. */
    static final Codes PORT_STATE = new Codes("invalid state",
            Map.of(1, "PORT_DOWN", 2, "PORT_INIT", 3, "PORT_ARMED", 4, "PORT_ACTIVE"));

    /** {@code port_phy_state_str}. */
    static final Codes PHYSICAL_STATE = new Codes("invalid physical state",
            Map.of(1, "SLEEP", 2, "POLLING", 3, "DISABLED", 4, "PORT_CONFIGURATION TRAINNING", 5, "LINK_UP",
                    6, "LINK_ERROR_RECOVERY", 7, "PHY TEST"));

    /** {@code atomic_cap_str}. */
    static final Codes ATOMIC_CAPABILITY = new Codes("invalid atomic capability",
            Map.of(0, "ATOMIC_NONE", 1, "ATOMIC_HCA", 2, "ATOMIC_GLOB"));

    /** {@code mtu_str}. */
    static final Codes MTU = new Codes("invalid MTU",
            Map.of(1, "256", 2, "512", 3, "1024", 4, "2048", 5, "4096"));

    /** {@code width_str}. */
    static final Codes WIDTH = new Codes("invalid width",
            Map.of(1, "1", 2, "4", 4, "8", 8, "12", 16, "2"));

    /** {@code speed_str}. */
    static final Codes SPEED = new Codes("invalid speed",
            Map.of(1, "2.5 Gbps", 2, "5.0 Gbps", 4, "10.0 Gbps", 8, "10.0 Gbps", 16, "14.0 Gbps", 32, "25.0 Gbps",
                    64, "50.0 Gbps", 128, "100.0 Gbps"));

    /** {@code vl_str}. */
    static final Codes VIRTUAL_LANES = new Codes("invalid value",
            Map.of(1, "1", 2, "2", 3, "4", 4, "8", 5, "15"));

    /** {@code link_layer_str}. */
    static final Codes LINK_LAYER = new Codes("Unknown",
            Map.of(0, "InfiniBand", 1, "InfiniBand", 2, "Ethernet"));
}
