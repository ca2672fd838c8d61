package dev.panamaverbs.info;

import java.util.ArrayList;
import java.util.List;

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

    /** {@code transport_str}. */
    static String transport(int transport) {
        return switch (transport) {
            case 0 -> "InfiniBand";
            case 1 -> "iWARP";
            case 2 -> "usNIC";
            case 3 -> "usNIC UDP";
            default -> "invalid transport";
        };
    }

    /** {@code port_state_str}. */
    static String portState(int state) {
        return switch (state) {
            case 1 -> "PORT_DOWN";
            case 2 -> "PORT_INIT";
            case 3 -> "PORT_ARMED";
            case 4 -> "PORT_ACTIVE";
            default -> "invalid state";
        };
    }

    /** {@code port_phy_state_str}. */
    static String physicalState(int state) {
        return switch (state) {
            case 1 -> "SLEEP";
            case 2 -> "POLLING";
            case 3 -> "DISABLED";
            case 4 -> "PORT_CONFIGURATION TRAINNING";
            case 5 -> "LINK_UP";
            case 6 -> "LINK_ERROR_RECOVERY";
            case 7 -> "PHY TEST";
            default -> "invalid physical state";
        };
    }

    /** {@code atomic_cap_str}. */
    static String atomicCapability(int capability) {
        return switch (capability) {
            case 0 -> "ATOMIC_NONE";
            case 1 -> "ATOMIC_HCA";
            case 2 -> "ATOMIC_GLOB";
            default -> "invalid atomic capability";
        };
    }

    /** {@code mtu_str}. */
    static String mtu(int mtu) {
        return switch (mtu) {
            case 1 -> "256";
            case 2 -> "512";
            case 3 -> "1024";
            case 4 -> "2048";
            case 5 -> "4096";
            default -> "invalid MTU";
        };
    }

    /** {@code width_str}. */
    static String width(int width) {
        return switch (width) {
            case 1 -> "1";
            case 2 -> "4";
            case 4 -> "8";
            case 8 -> "12";
            case 16 -> "2";
            default -> "invalid width";
        };
    }

    /** {@code speed_str}. */
    static String speed(int speed) {
        return switch (speed) {
            case 1 -> "2.5 Gbps";
            case 2 -> "5.0 Gbps";
            case 4, 8 -> "10.0 Gbps";
            case 16 -> "14.0 Gbps";
            case 32 -> "25.0 Gbps";
            case 64 -> "50.0 Gbps";
            case 128 -> "100.0 Gbps";
            default -> "invalid speed";
        };
    }

    /** {@code vl_str}. */
    static String virtualLanes(int vlNum) {
        return switch (vlNum) {
            case 1 -> "1";
            case 2 -> "2";
            case 3 -> "4";
            case 4 -> "8";
            case 5 -> "15";
            default -> "invalid value";
        };
    }

    /** {@code link_layer_str}. */
    static String linkLayer(int linkLayer) {
        return switch (linkLayer) {
            case 0, 1 -> "InfiniBand";
            case 2 -> "Ethernet";
            default -> "Unknown";
        };
    }
}
