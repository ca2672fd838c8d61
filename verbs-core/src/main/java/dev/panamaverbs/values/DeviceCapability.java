package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

import java.util.EnumSet;
import java.util.Set;

/**
 * One bit of a device's capability flags (C {@code enum ibv_device_cap_flags} in
 * {@code ibv_device_attr.device_cap_flags}, extended to 64 bits by
 * {@code ibv_device_attr_ex.device_cap_flags_ex}).
 */
public enum DeviceCapability {
    /** {@code IBV_DEVICE_RESIZE_MAX_WR}. */
    RESIZE_MAX_WR(IBV_DEVICE_RESIZE_MAX_WR),
    /** {@code IBV_DEVICE_BAD_PKEY_CNTR}. */
    BAD_PKEY_CNTR(IBV_DEVICE_BAD_PKEY_CNTR),
    /** {@code IBV_DEVICE_BAD_QKEY_CNTR}. */
    BAD_QKEY_CNTR(IBV_DEVICE_BAD_QKEY_CNTR),
    /** {@code IBV_DEVICE_RAW_MULTI}. */
    RAW_MULTI(IBV_DEVICE_RAW_MULTI),
    /** {@code IBV_DEVICE_AUTO_PATH_MIG}. */
    AUTO_PATH_MIG(IBV_DEVICE_AUTO_PATH_MIG),
    /** {@code IBV_DEVICE_CHANGE_PHY_PORT}. */
    CHANGE_PHY_PORT(IBV_DEVICE_CHANGE_PHY_PORT),
    /** {@code IBV_DEVICE_UD_AV_PORT_ENFORCE}. */
    UD_AV_PORT_ENFORCE(IBV_DEVICE_UD_AV_PORT_ENFORCE),
    /** {@code IBV_DEVICE_CURR_QP_STATE_MOD}. */
    CURR_QP_STATE_MOD(IBV_DEVICE_CURR_QP_STATE_MOD),
    /** {@code IBV_DEVICE_SHUTDOWN_PORT}. */
    SHUTDOWN_PORT(IBV_DEVICE_SHUTDOWN_PORT),
    /** {@code IBV_DEVICE_INIT_TYPE}. */
    INIT_TYPE(IBV_DEVICE_INIT_TYPE),
    /** {@code IBV_DEVICE_PORT_ACTIVE_EVENT}. */
    PORT_ACTIVE_EVENT(IBV_DEVICE_PORT_ACTIVE_EVENT),
    /** {@code IBV_DEVICE_SYS_IMAGE_GUID}. */
    SYS_IMAGE_GUID(IBV_DEVICE_SYS_IMAGE_GUID),
    /** {@code IBV_DEVICE_RC_RNR_NAK_GEN}. */
    RC_RNR_NAK_GEN(IBV_DEVICE_RC_RNR_NAK_GEN),
    /** {@code IBV_DEVICE_SRQ_RESIZE}. */
    SRQ_RESIZE(IBV_DEVICE_SRQ_RESIZE),
    /** {@code IBV_DEVICE_N_NOTIFY_CQ}. */
    N_NOTIFY_CQ(IBV_DEVICE_N_NOTIFY_CQ),
    /** {@code IBV_DEVICE_MEM_WINDOW}. */
    MEM_WINDOW(IBV_DEVICE_MEM_WINDOW),
    /** {@code IBV_DEVICE_UD_IP_CSUM}. */
    UD_IP_CSUM(IBV_DEVICE_UD_IP_CSUM),
    /** {@code IBV_DEVICE_XRC}. */
    XRC(IBV_DEVICE_XRC),
    /** {@code IBV_DEVICE_MEM_MGT_EXTENSIONS}. */
    MEM_MGT_EXTENSIONS(IBV_DEVICE_MEM_MGT_EXTENSIONS),
    /** {@code IBV_DEVICE_MEM_WINDOW_TYPE_2A}. */
    MEM_WINDOW_TYPE_2A(IBV_DEVICE_MEM_WINDOW_TYPE_2A),
    /** {@code IBV_DEVICE_MEM_WINDOW_TYPE_2B}. */
    MEM_WINDOW_TYPE_2B(IBV_DEVICE_MEM_WINDOW_TYPE_2B),
    /** {@code IBV_DEVICE_RC_IP_CSUM}. */
    RC_IP_CSUM(IBV_DEVICE_RC_IP_CSUM),
    /** {@code IBV_DEVICE_RAW_IP_CSUM}. */
    RAW_IP_CSUM(IBV_DEVICE_RAW_IP_CSUM),
    /** {@code IBV_DEVICE_MANAGED_FLOW_STEERING}. */
    MANAGED_FLOW_STEERING(IBV_DEVICE_MANAGED_FLOW_STEERING),
    /** {@code IBV_DEVICE_RAW_SCATTER_FCS}: a {@code (1ULL << 34)} define, only in the 64-bit flags. */
    RAW_SCATTER_FCS(1L << 34),
    /** {@code IBV_DEVICE_PCI_WRITE_END_PADDING}: a {@code (1ULL << 36)} define, only in the 64-bit flags. */
    PCI_WRITE_END_PADDING(1L << 36);

    private final long bit;

    DeviceCapability(long bit) {
        this.bit = bit;
    }

    /**
     * The bit in the 64-bit flags word.
     *
     * @return the bit in the 64-bit flags word
     */
    public long bit() {
        return bit;
    }

    /**
     * The capabilities set in {@code flags}; bits this version does not know are ignored.
     *
     * @param flags the C {@code device_cap_flags} word
     * @return the capabilities set in {@code flags}
     */
    public static Set<DeviceCapability> fromBits(long flags) {
        EnumSet<DeviceCapability> set = EnumSet.noneOf(DeviceCapability.class);
        for (DeviceCapability capability : values()) {
            if ((flags & capability.bit) != 0) {
                set.add(capability);
            }
        }
        return set;
    }
}
