package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_ah;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.List;

/**
 * An address handle (C {@code struct ibv_ah}): a resolved destination that unreliable datagram
 * sends name in their work requests. Created by
 * {@link ProtectionDomain#createAddressHandle(AddressHandleAttributes)} ({@code ibv_create_ah});
 * closing it destroys it ({@code ibv_destroy_ah}).
 */
public final class AddressHandle extends ResourceCreation.FreedBy {
    private final AddressHandleAttributes attributes;

    /** Closing it is {@code ibv_destroy_ah}. */
    private AddressHandle(ProtectionDomain protectionDomain, MemorySegment handle, AddressHandleAttributes attributes) {
        super("AddressHandle", handle, protectionDomain, "ibv_destroy_ah", IbverbsCalls::ibv_destroy_ah);
        this.attributes = attributes;
    }

    /**
     * {@code ibv_create_ah}: the factory hook behind {@link ProtectionDomain#createAddressHandle}.
     * Checks first what the port implies: the port exists, a port that needs a GRH (every RoCE
     * port) gets one, and the source GID index lies in the port's GID table.
     */
    static AddressHandle create(ProtectionDomain pd, AddressHandleAttributes attributes) {
        String verb = "ibv_create_ah";
        ResourceCreation.requireArguments(verb, pd, "protection domain is null", attributes, "attributes are null");
        return ResourceCreation.create(verb, ibv_ah.SIZE, List.of(pd), arena -> {
            checkAgainstPort(pd.parentContext(), attributes);
            MemorySegment attr = arena.allocate(ibv_ah_attr.LAYOUT);
            attributes.writeTo(attr);
            return attr;
        }, (state, attr) -> IbverbsCalls.ibv_create_ah(state, pd.handleSegment(), MemorySegment.ofAddress(attr)).address(),
                (ah, attr) -> new AddressHandle(pd, ah, attributes));
    }

    /** {@code ibv_create_ah_from_wc}: the factory hook behind {@link ProtectionDomain#createAddressHandle(Completions, int, MemorySegment, int)}. */
    static AddressHandle fromCompletion(ProtectionDomain pd, Completions completions, int index, MemorySegment grh, int port) {
        String verb = "ibv_create_ah_from_wc";
        Objects.requireNonNull(pd, verb + ": protection domain");
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            Context context = pd.parentContext();
            MemorySegment wc = AddressFromCompletion.check(verb, context, port, completions, index, grh);
            // The attributes, for the handle's description and port; then the verb itself.
            AddressHandleAttributes attributes =
                    AddressHandleAttributes.readFrom(AddressFromCompletion.init(verb, arena, context, port, wc, grh));
            MemorySegment state = CallState.allocate(arena);
            MemorySegment ah = IbverbsCalls.ibv_create_ah_from_wc(state, pd.handleSegment(), wc,
                    AddressFromCompletion.grhOrNull(grh), (byte) port);
            NativeCalls.checkPointer(verb, ah, CallState.errno(state));
            return adopt(pd, ah, attributes);
        } finally {
            pd.release();
        }
    }

    /** Wraps and registers an {@code ibv_ah} the caller created in {@code pd} (held by the caller). */
    static AddressHandle adopt(ProtectionDomain pd, MemorySegment ah, AddressHandleAttributes attributes) {
        AddressHandle handle = new AddressHandle(pd, Pointers.sized(ah, ibv_ah.SIZE), attributes);
        handle.register();
        return handle;
    }

    /** The checks that need the device: port range, GRH on RoCE, GID index in the table. */
    private static void checkAgainstPort(Context context, AddressHandleAttributes attributes) {
        int port = attributes.portNumber();
        Context.checkPortRange("ibv_create_ah", port, context.portCount());
        PortAttributes portAttributes = context.queryPort(port);
        checkAgainstPort(attributes, portAttributes);
    }

    /** The port checks on already queried attributes (a separate step so that tests need no device). */
    static void checkAgainstPort(AddressHandleAttributes attributes, PortAttributes port) {
        if (port.grhRequired() && !attributes.isGlobal()) {
            throw new IllegalArgumentException("ibv_create_ah: port " + port.port() + " has link layer "
                    + port.linkLayer() + " and needs a GRH (RoCE addresses are GIDs): give a GlobalRoute,"
                    + " e.g. AddressHandleAttributes.roce(sourceGidEntry, destinationGid)");
        }
        if (attributes.isGlobal() && attributes.globalRoute().sourceGidIndex() >= port.gidTableLength()) {
            throw new IllegalArgumentException("ibv_create_ah: grh.sgid_index " + attributes.globalRoute().sourceGidIndex()
                    + " is outside port " + port.port() + "'s GID table of " + port.gidTableLength() + " entries");
        }
    }

    @Override
    protected String describe() {
        return "port=" + attributes.portNumber()
                + (attributes.isGlobal() ? ", dgid=" + attributes.globalRoute().destinationGid().toAddressString()
                        : ", dlid=" + attributes.destinationLid());
    }

    /**
     * The protection domain the handle belongs to ({@code ibv_ah.pd}).
     *
     * @return the protection domain the handle belongs to ({@code ibv_ah.pd})
     */
    public ProtectionDomain protectionDomain() {
        return whileOpen(parent());
    }

    /**
     * The protection domain without the closed check, for the send path that already holds the
     * handle (acquired): a UD send may only name an address handle of its queue pair's domain.
     */
    ProtectionDomain parentDomain() {
        return parent();
    }

    /**
     * Checks that this handle belongs to {@code domain}, the protection domain of the queue pair
     * that posts a UD send naming it ({@code ibv_post_send}: {@code wr.ud.ah->pd == qp->pd}).
     *
     * The message names {@code verb} and {@code wrId}, and is built only on failure: this runs on
     * every UD post, where building it each time allocated.
     *
     * @throws IllegalArgumentException naming {@code verb} and {@code wrId} otherwise
     */
    void checkDomain(String verb, long wrId, ProtectionDomain domain) {
        ProtectionDomain own = parent();
        if (own != domain) {
            RegistrationChecks.checkSameDomain(verb + ": wr_id=" + wrId, "the queue pair", domain, this, own);
        }
    }

    /**
     * The attributes the handle was created with.
     *
     * @return the attributes the handle was created with
     */
    public AddressHandleAttributes attributes() {
        return whileOpen(attributes);
    }
}
