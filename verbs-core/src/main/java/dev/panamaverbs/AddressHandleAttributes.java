package dev.panamaverbs;

import dev.panamaverbs.internal.Ranges;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Where an address handle sends to (C {@code struct ibv_ah_attr}): the local port, the
 * destination LID and service level, and, for RoCE and inter-subnet InfiniBand, a
 * {@link GlobalRoute}. Every field is checked against its C width when the record is built.
 *
 * @param portNumber  the local port to send from ({@code port_num}), from 1
 * @param destinationLid the destination LID ({@code dlid}); 0 on RoCE
 * @param serviceLevel   {@code sl}, 0..15
 * @param sourcePathBits {@code src_path_bits}, 0..127 (the low LID bits when the port's LMC is set)
 * @param staticRate     {@code static_rate}, an {@code enum ibv_rate} value (0 = port rate)
 * @param globalRoute    the GRH ({@code grh}, {@code is_global = 1}), or {@code null} for none
 */
public record AddressHandleAttributes(int portNumber, int destinationLid, int serviceLevel, int sourcePathBits,
                                      int staticRate, GlobalRoute globalRoute) {

    /** Checks every field against its C width. */
    public AddressHandleAttributes {
        Ranges.require("ibv_create_ah", "port_num", portNumber, 1, 255);
        Ranges.require("ibv_create_ah", "dlid", destinationLid, 0, 0xFFFF);
        Ranges.require("ibv_create_ah", "sl", serviceLevel, 0, 15);
        Ranges.require("ibv_create_ah", "src_path_bits", sourcePathBits, 0, 127);
        Ranges.require("ibv_create_ah", "static_rate", staticRate, 0, 255);
    }

    /**
     * A RoCE destination: send from the local GID {@code source} (its port and index; pick a
     * {@link GidType#ROCE_V2} entry for RoCE v2) to {@code destination}.
     *
     * @param source the local GID entry to send from (its port and index)
     * @param destination the peer's GID
     * @return a RoCE destination: send from the local GID {@code source}
     */
    public static AddressHandleAttributes roce(GidEntry source, Gid destination) {
        Objects.requireNonNull(source, "ibv_create_ah: source GID entry is null");
        return new AddressHandleAttributes(source.port(), 0, 0, 0, 0, GlobalRoute.to(destination, source.index()));
    }

    /**
     * A destination through a GRH: port {@code portNumber}, local GID {@code sourceGidIndex}, to {@code destination}.
     *
     * @param portNumber the port number (1-based)
     * @param sourceGidIndex the index of the local (source) GID
     * @param destination the peer's GID
     * @return a destination through a GRH: port {@code portNumber}, local GID {@code sourceGidIndex}, to {@code destination}
     */
    public static AddressHandleAttributes global(int portNumber, int sourceGidIndex, Gid destination) {
        return new AddressHandleAttributes(portNumber, 0, 0, 0, 0, GlobalRoute.to(destination, sourceGidIndex));
    }

    /**
     * An InfiniBand destination in the local subnet, by LID alone (no GRH; not valid on RoCE ports).
     *
     * @param portNumber the port number (1-based)
     * @param destinationLid the destination LID
     * @return an InfiniBand destination in the local subnet, by LID alone
     */
    public static AddressHandleAttributes local(int portNumber, int destinationLid) {
        return new AddressHandleAttributes(portNumber, destinationLid, 0, 0, 0, null);
    }

    /**
     * The GRH's hop limit ({@code grh.hop_limit}), as {@code RemoteEndpoint} has one.
     *
     * @return the hop limit of the global route
     * @throws IllegalStateException when the attributes carry no global route (no GRH: local InfiniBand)
     */
    public int hopLimit() {
        if (globalRoute == null) {
            throw new IllegalStateException("ibv_ah_attr: no global route (is_global = 0), so no hop limit: " + this);
        }
        return globalRoute.hopLimit();
    }

    /**
     * These attributes with the GRH's hop limit set to {@code hopLimit}.
     *
     * @param hopLimit {@code grh.hop_limit}, 0..255
     * @return the changed attributes
     * @throws IllegalStateException when the attributes carry no global route
     */
    public AddressHandleAttributes withHopLimit(int hopLimit) {
        if (globalRoute == null) {
            throw new IllegalStateException("ibv_ah_attr: no global route (is_global = 0) to set a hop limit on: " + this);
        }
        return withGlobalRoute(globalRoute.withHopLimit(hopLimit));
    }

    /**
     * Whether a GRH is sent ({@code is_global}).
     *
     * @return whether a GRH is sent ({@code is_global})
     */
    public boolean isGlobal() {
        return globalRoute != null;
    }

    /**
     * These attributes with another service level.
     *
     * @param serviceLevel the service level
     * @return this address handle attributes
     */
    public AddressHandleAttributes withServiceLevel(int serviceLevel) {
        return new AddressHandleAttributes(portNumber, destinationLid, serviceLevel, sourcePathBits, staticRate, globalRoute);
    }

    /**
     * These attributes with another static rate ({@code enum ibv_rate}).
     *
     * @param staticRate the static rate
     * @return this address handle attributes
     */
    public AddressHandleAttributes withStaticRate(int staticRate) {
        return new AddressHandleAttributes(portNumber, destinationLid, serviceLevel, sourcePathBits, staticRate, globalRoute);
    }

    /**
     * These attributes with another static rate ({@code static_rate}), as {@link StaticRate}
     * converts it from Mb/s or a multiple of 2.5 Gb/s ({@code mbps_to_ibv_rate},
     * {@code mult_to_ibv_rate}).
     *
     * @param staticRate the static rate
     * @return these attributes with {@code staticRate.value()}
     */
    public AddressHandleAttributes withStaticRate(StaticRate staticRate) {
        return withStaticRate(java.util.Objects.requireNonNull(staticRate, "staticRate").value());
    }

    /**
     * These attributes with another source path bits value.
     *
     * @param sourcePathBits the source path bits
     * @return this address handle attributes
     */
    public AddressHandleAttributes withSourcePathBits(int sourcePathBits) {
        return new AddressHandleAttributes(portNumber, destinationLid, serviceLevel, sourcePathBits, staticRate, globalRoute);
    }

    /**
     * These attributes with another GRH ({@code null}: none).
     *
     * @param globalRoute the global route
     * @return this address handle attributes
     */
    public AddressHandleAttributes withGlobalRoute(GlobalRoute globalRoute) {
        return new AddressHandleAttributes(portNumber, destinationLid, serviceLevel, sourcePathBits, staticRate, globalRoute);
    }

    /** Writes every field into a zeroed {@code struct ibv_ah_attr}. */
    void writeTo(MemorySegment ahAttr) {
        ibv_ah_attr.dlid(ahAttr, (short) destinationLid);
        ibv_ah_attr.sl(ahAttr, (byte) serviceLevel);
        ibv_ah_attr.src_path_bits(ahAttr, (byte) sourcePathBits);
        ibv_ah_attr.static_rate(ahAttr, (byte) staticRate);
        ibv_ah_attr.port_num(ahAttr, (byte) portNumber);
        ibv_ah_attr.is_global(ahAttr, (byte) (globalRoute != null ? 1 : 0));
        if (globalRoute != null) {
            globalRoute.writeTo(ibv_ah_attr.grh(ahAttr));
        }
    }

    /** Reads a filled {@code struct ibv_ah_attr} (from {@code ibv_init_ah_from_wc}): the inverse of {@link #writeTo}. */
    static AddressHandleAttributes readFrom(MemorySegment ahAttr) {
        GlobalRoute route = null;
        if (ibv_ah_attr.is_global(ahAttr) != 0) {
            MemorySegment grh = ibv_ah_attr.grh(ahAttr);
            route = new GlobalRoute(Gid.read(ibv_global_route.dgid(grh)), ibv_global_route.flow_label(grh),
                    Byte.toUnsignedInt(ibv_global_route.sgid_index(grh)),
                    Byte.toUnsignedInt(ibv_global_route.hop_limit(grh)),
                    Byte.toUnsignedInt(ibv_global_route.traffic_class(grh)));
        }
        return new AddressHandleAttributes(Byte.toUnsignedInt(ibv_ah_attr.port_num(ahAttr)),
                Short.toUnsignedInt(ibv_ah_attr.dlid(ahAttr)), Byte.toUnsignedInt(ibv_ah_attr.sl(ahAttr)),
                Byte.toUnsignedInt(ibv_ah_attr.src_path_bits(ahAttr)), Byte.toUnsignedInt(ibv_ah_attr.static_rate(ahAttr)),
                route);
    }

    /**
     * {@code ibv_init_ah_from_wc}: the address of whoever sent the datagram that completed as
     * entry {@code index} of {@code completions} on a UD queue pair, so that a reply reaches it
     * (reply to the queue pair {@link Completions#sourceQp(int)}).
     *
     * @param context     the device context the datagram arrived on
     * @param port        the port it arrived on
     * @param completions the polled completions
     * @param index       the receive's entry
     * @param grh         the first 40 bytes of the receive's buffer (where the device put the
     *                    global route header), or null when the completion has no GRH
     *                    ({@link CompletionFlag#GRH} clear: InfiniBand without routing)
     * @return the attributes of an address handle back to the sender
     * @throws IllegalArgumentException for a port out of range, a failed completion, or a missing
     *         or short {@code grh} where the completion has one
     * @throws VerbsException if the verb fails
     */
    public static AddressHandleAttributes fromCompletion(Context context, int port, Completions completions, int index,
                                                         MemorySegment grh) {
        String verb = "ibv_init_ah_from_wc";
        Objects.requireNonNull(context, verb + ": context");
        context.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment wc = AddressFromCompletion.check(verb, context, port, completions, index, grh);
            return readFrom(AddressFromCompletion.init(verb, arena, context, port, wc, grh));
        } finally {
            context.release();
        }
    }

}
