package dev.panamaverbs.values;

import dev.panamaverbs.ffm.ibv_port_attr;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A port's attributes (C {@code struct ibv_port_attr}, the full structure as the
 * {@code ibv_query_port} macro fills it through {@code verbs_context.query_port}). Unsigned C
 * values are widened to non-negative Java numbers.
 *
 * @param port              the port number, from 1
 * @param state             {@code state}: the logical port state
 * @param maxMtu            {@code max_mtu}
 * @param activeMtu         {@code active_mtu}: what a connected QP's path MTU may be at most
 * @param gidTableLength    {@code gid_tbl_len}
 * @param portCapFlags      {@code port_cap_flags} ({@code enum ibv_port_cap_flags} bits)
 * @param maxMessageSize    {@code max_msg_sz}, bytes
 * @param badPkeyCounter    {@code bad_pkey_cntr}
 * @param qkeyViolationCounter {@code qkey_viol_cntr}
 * @param pkeyTableLength   {@code pkey_tbl_len}
 * @param lid               {@code lid}: the base LID (0 on RoCE)
 * @param smLid             {@code sm_lid}
 * @param lmc               {@code lmc}
 * @param maxVirtualLanes   {@code max_vl_num} (encoded: 1 = VL0, 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14)
 * @param smServiceLevel    {@code sm_sl}
 * @param subnetTimeout     {@code subnet_timeout}
 * @param initTypeReply     {@code init_type_reply}
 * @param activeWidth       {@code active_width} (encoded; {@link #activeWidthLanes()} decodes it)
 * @param activeSpeed       {@code active_speed} (encoded; {@link #activeSpeedGbps()} decodes it)
 * @param physicalState     {@code phys_state} (5 = LinkUp; {@link #physicalStateName()})
 * @param linkLayer         {@code link_layer}
 * @param flags             {@code flags} ({@code IBV_QPF_GRH_REQUIRED} = 1: address handles need a GRH)
 * @param portCapFlags2     {@code port_cap_flags2} ({@code enum ibv_port_cap_flags2} bits)
 */
public record PortAttributes(
        int port,
        PortState state,
        Mtu maxMtu,
        Mtu activeMtu,
        int gidTableLength,
        int portCapFlags,
        long maxMessageSize,
        long badPkeyCounter,
        long qkeyViolationCounter,
        int pkeyTableLength,
        int lid,
        int smLid,
        int lmc,
        int maxVirtualLanes,
        int smServiceLevel,
        int subnetTimeout,
        int initTypeReply,
        int activeWidth,
        int activeSpeed,
        int physicalState,
        LinkLayer linkLayer,
        int flags,
        int portCapFlags2) {

    /** {@code IBV_QPF_GRH_REQUIRED}. */
    private static final int GRH_REQUIRED = 1;

    /** Checks the components. */
    public PortAttributes {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(maxMtu, "maxMtu");
        Objects.requireNonNull(activeMtu, "activeMtu");
        Objects.requireNonNull(linkLayer, "linkLayer");
    }

    /**
     * True when the port is {@link PortState#ACTIVE}: ready to carry traffic.
     *
     * @return true when the port is {@link PortState#ACTIVE}: ready to carry traffic
     */
    public boolean isActive() {
        return state == PortState.ACTIVE;
    }

    /**
     * True for RoCE ports ({@link LinkLayer#ETHERNET}): addressing needs a GRH and a GID, not a LID.
     *
     * @return true for RoCE ports ({@link LinkLayer#ETHERNET}): addressing needs a GRH and a GID, not a LID
     */
    public boolean isEthernet() {
        return linkLayer == LinkLayer.ETHERNET;
    }

    /**
     * True when address handles on this port must carry a GRH (RoCE always; IB when the flag says so).
     *
     * @return true when address handles on this port must carry a GRH
     */
    public boolean grhRequired() {
        return isEthernet() || (flags & GRH_REQUIRED) != 0;
    }

    /**
     * The lane count of {@link #activeWidth()} (1, 2, 4, 8 or 12), 0 when the encoding is unknown.
     *
     * @return the lane count of {@link #activeWidth()} (1, 2, 4, 8 or 12), 0 when the encoding is unknown
     */
    public int activeWidthLanes() {
        return switch (activeWidth) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
    }

    /**
     * The per-lane signalling rate of {@link #activeSpeed()} in Gbit/s (SDR 2.5, DDR 5, QDR 10,
     * FDR10 10.3125, FDR 14.0625, EDR 25.78125, HDR 53.125, NDR 106.25), 0 when unknown.
     *
     * @return the per-lane signalling rate of {@link #activeSpeed()} in Gbit/s (SDR 2.5, DDR 5, QDR 10, FDR10 10.3125, FDR 14.0625, EDR 25.78125, HDR 53.125, NDR 106.25), 0 when unknown
     */
    public double activeSpeedGbps() {
        return switch (activeSpeed) {
            case 1 -> 2.5;
            case 2 -> 5.0;
            case 4 -> 10.0;
            case 8 -> 10.3125;
            case 16 -> 14.0625;
            case 32 -> 25.78125;
            case 64 -> 53.125;
            case 128 -> 106.25;
            default -> 0.0;
        };
    }

    /**
     * The physical state's name, as {@code ibv_devinfo} prints it ({@code LINK_UP}...).
     *
     * @return the physical state's name, as {@code ibv_devinfo} prints it ({@code LINK_UP}...)
     */
    public String physicalStateName() {
        return switch (physicalState) {
            case 1 -> "SLEEP";
            case 2 -> "POLLING";
            case 3 -> "DISABLED";
            case 4 -> "PORT_CONFIGURATION_TRAINING";
            case 5 -> "LINK_UP";
            case 6 -> "LINK_ERROR_RECOVERY";
            case 7 -> "PHY_TEST";
            default -> "UNKNOWN(" + physicalState + ")";
        };
    }

    /**
     * Decodes a filled {@code struct ibv_port_attr} of port {@code port}.
     *
     * @param port the port number the attributes belong to
     * @param attr the filled {@code struct ibv_port_attr}
     * @return the attributes
     */
    public static PortAttributes read(int port, MemorySegment attr) {
        Mtu maxMtu = Mtu.orNull(ibv_port_attr.max_mtu(attr));
        Mtu activeMtu = Mtu.orNull(ibv_port_attr.active_mtu(attr));
        PortState state = PortState.orNull(ibv_port_attr.state(attr));
        LinkLayer linkLayer = LinkLayer.orNull(Byte.toUnsignedInt(ibv_port_attr.link_layer(attr)));
        return new PortAttributes(
                port,
                state == null ? PortState.NOP : state,
                // A port that is down may report MTU 0; the smallest MTU is the safe reading.
                maxMtu == null ? Mtu.MTU_256 : maxMtu,
                activeMtu == null ? Mtu.MTU_256 : activeMtu,
                ibv_port_attr.gid_tbl_len(attr),
                ibv_port_attr.port_cap_flags(attr),
                Integer.toUnsignedLong(ibv_port_attr.max_msg_sz(attr)),
                Integer.toUnsignedLong(ibv_port_attr.bad_pkey_cntr(attr)),
                Integer.toUnsignedLong(ibv_port_attr.qkey_viol_cntr(attr)),
                Short.toUnsignedInt(ibv_port_attr.pkey_tbl_len(attr)),
                Short.toUnsignedInt(ibv_port_attr.lid(attr)),
                Short.toUnsignedInt(ibv_port_attr.sm_lid(attr)),
                Byte.toUnsignedInt(ibv_port_attr.lmc(attr)),
                Byte.toUnsignedInt(ibv_port_attr.max_vl_num(attr)),
                Byte.toUnsignedInt(ibv_port_attr.sm_sl(attr)),
                Byte.toUnsignedInt(ibv_port_attr.subnet_timeout(attr)),
                Byte.toUnsignedInt(ibv_port_attr.init_type_reply(attr)),
                Byte.toUnsignedInt(ibv_port_attr.active_width(attr)),
                Byte.toUnsignedInt(ibv_port_attr.active_speed(attr)),
                Byte.toUnsignedInt(ibv_port_attr.phys_state(attr)),
                linkLayer == null ? LinkLayer.UNSPECIFIED : linkLayer,
                Byte.toUnsignedInt(ibv_port_attr.flags(attr)),
                Short.toUnsignedInt(ibv_port_attr.port_cap_flags2(attr)));
    }
}
