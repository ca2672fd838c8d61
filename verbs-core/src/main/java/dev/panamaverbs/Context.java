package dev.panamaverbs;

import dev.panamaverbs.internal.Availability;
import dev.panamaverbs.internal.CriticalPosts;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortCounters;
import dev.panamaverbs.loader.internal.LibIbverbs;
import dev.panamaverbs.gateway.ObjectVerbs;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.ibv_device;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * An open RDMA device (C {@code struct ibv_context}, from {@code ibv_open_device}): the root of
 * the resource tree. It answers the device, port, GID and P_Key queries, delivers asynchronous
 * events, and creates protection domains, completion channels and completion queues.
 *
 * <p>{@link #close()} closes everything created from it (QPs before CQs and PDs...), stops the
 * async event listener, then calls {@code ibv_close_device}. Thread-safe.
 */
public final class Context extends VerbsResource {
    private final Device device;
    private final int asyncFd;
    private final int completionVectors;
    private final AsyncEventReader asyncEvents;
    /** The identifier whose librdmacm-owned device context this wraps; null when opened here. */
    private final VerbsResource borrowedFrom;
    /** {@code ibv_query_device} result cached for capability checks; limits never change. */
    private volatile DeviceAttributes maxAttributes;
    /** {@link #criticalPosts()}, decided on first use. */
    private volatile Boolean criticalPosts;


    /**
     * The context of {@code device} that {@code ibv_open_device} just opened ({@link Device#open()});
     * closes the native context again when wrapping it fails.
     */
    static Context ofOpened(Device device, MemorySegment context) {
        try {
            return new Context(device, context);
        } catch (RuntimeException | Error e) {
            closeDeviceQuietly(context, e);
            throw e;
        }
    }

    /** Wraps an opened {@code ibv_context*} (sized to {@code ibv_context.SIZE}). */
    Context(Device device, MemorySegment context) {
        this(device, context, null);
        register();
    }

    /**
     * Wraps the device context librdmacm opened and owns ({@code rdma_cm_id.verbs}) for one
     * identifier: a child of {@code owner} in the tree, so closing the identifier closes what was
     * created here first. Closing it never calls {@code ibv_close_device} (librdmacm keeps the
     * device open for every identifier of the process); the caller registers it. A null
     * {@code owner} is a context this JVM opened (the constructor above).
     */
    Context(Device device, MemorySegment context, VerbsResource owner) {
        super("Context", context, owner == null ? new VerbsResource[0] : new VerbsResource[] {owner});
        this.device = device;
        this.asyncFd = ibv_context.async_fd(context);
        this.completionVectors = ibv_context.num_comp_vectors(context);
        this.asyncEvents = new AsyncEventReader(this, device.name(), asyncFd,
                (type, number, resource) -> new AsyncEvent(this, type, number, resource));
        this.borrowedFrom = owner;
        LibIbverbs.LIBRARY.announceLoaded(); // the library's first use, not the probe, logs its file
    }

    /**
     * True when this context is librdmacm's ({@code rdma_cm_id.verbs}, through {@code ConnectionId.context()}): shared by every
     * rdma_cm identifier on the device, never closed by this object, and its async events go to
     * whichever wrapper asks first.
     *
     * @return whether librdmacm owns this context
     */
    public boolean isOwnedByConnectionManager() {
        return borrowedFrom != null;
    }

    /**
     * Whether {@code other} wraps the same native {@code ibv_context} as this one. librdmacm opens
     * one context per device and gives it to every identifier on that device, but each
     * identifier's {@code ConnectionId.context()} is a wrapper of its own: resources made on one
     * identifier's wrapper (a protection domain, an SRQ) may serve a queue pair of another
     * identifier on the same device when this answers true.
     *
     * @param other another context wrapper
     * @return true when both wrap one native context
     * @throws IllegalStateException when either is closed
     */
    public boolean sharesNativeContext(Context other) {
        java.util.Objects.requireNonNull(other, "sharesNativeContext: other is null");
        requireOpen(this, other);
        return other == this || handleAddress() == other.handleAddress();
    }

    /**
     * The device this context was opened from.
     *
     * @return the device this context was opened from
     */
    public Device device() {
        return device;
    }

    /**
     * {@code num_comp_vectors}: completion vectors a CQ may choose from ({@code 0..count-1}).
     *
     * @return {@code num_comp_vectors}: completion vectors a CQ may choose from ({@code 0..count-1})
     */
    public int completionVectorCount() {
        return completionVectors;
    }

    /**
     * Queries the device's attributes ({@code ibv_query_device_ex}, or {@code ibv_query_device}
     * where the provider has no extended query; {@link DeviceAttributes#extended()} tells which).
     *
     * @return the device attributes
     */
    public DeviceAttributes queryDevice() {
        acquire();
        try {
            DeviceAttributes attributes = ContextQueries.queryDevice(handleSegment());
            if (maxAttributes == null) {
                maxAttributes = attributes; // limits do not change: the first answer stays the cached one
            }
            return attributes;
        } finally {
            release();
        }
    }

    /**
     * The device attributes, queried once ({@code ibv_query_device_ex}) and cached: the limits
     * (max_qp_wr, max_sge, max_cqe...) that creating objects is checked against.
     *
     * @return the device attributes, queried once ({@code ibv_query_device_ex}) and cached: the limits (max_qp_wr, max_sge, max_cqe...) that creating objects is checked against
     */
    public DeviceAttributes maxAttributes() {
        DeviceAttributes cached = maxAttributes;
        return cached != null ? cached : queryDevice();
    }

    /**
     * Whether the queues of this context post ({@code ibv_post_send}, {@code ibv_post_recv},
     * {@code ibv_post_srq_recv}) through critical downcalls, without the JDK's thread-state
     * transition: true only for a provider whose posts never make a system call or wait (mlx5,
     * efa: identified by the kernel driver in sysfs and the {@code vendor_id}), or when the system
     * property {@code panamaverbs.criticalPosts=true} forces it (with a warning); false for rxe,
     * siw, any other provider, or {@code panamaverbs.criticalPosts=false}. Decided once, when the
     * first queue is created. docs/critical-downcalls.md has the table.
     *
     * @return whether posts skip the thread-state transition
     * @throws IllegalArgumentException if {@code panamaverbs.criticalPosts} has a value other than
     *         auto, true/on, false/off
     * @throws IllegalStateException if the context is closed
     */
    public boolean criticalPosts() {
        acquire(); // a question about the open context's queues, like every other query
        try {
            return postsCritical();
        } finally {
            release();
        }
    }

    /**
     * {@link #criticalPosts()} for a queue's constructor, without the liveness check: the create
     * verb already ran, and the decision was taken before it, so this must not throw.
     */
    boolean postsCritical() {
        Boolean decided = criticalPosts;
        if (decided == null) {
            decided = CriticalPosts.decide(device.name(), maxAttributes().vendorId());
            criticalPosts = decided;
        }
        return decided;
    }

    /**
     * The number of physical ports; they are numbered {@code 1..portCount()}.
     *
     * @return the number of physical ports
     */
    public int portCount() {
        return maxAttributes().portCount();
    }

    /**
     * Queries a port ({@code ibv_query_port}, the full query through the provider's
     * {@code query_port} op with the structure size, not the compatibility prefix).
     *
     * @throws IllegalArgumentException when {@code port} is not in {@code 1..portCount()}
     * @param port the port number (1-based)
     * @return the port attributes
     */
    public PortAttributes queryPort(int port) {
        checkPort("ibv_query_port", port);
        acquire();
        try {
            return ContextQueries.queryPort(handleSegment(), port);
        } finally {
            release();
        }
    }

    /**
     * A snapshot of a port's counters: the kernel's {@code counters} and {@code hw_counters}
     * files under {@code /sys/class/infiniband/<device>/ports/<port>/} (read from sysfs, no
     * verb), and the device's raw clock from {@code ibv_query_rt_values_ex} where the provider
     * offers that verb (rxe does not: the snapshot then has no clock, and no exception is thrown).
     *
     * @throws IllegalArgumentException when {@code port} is not in {@code 1..portCount()}
     * @throws IllegalStateException when the context is closed
     * @param port the port number (1-based)
     * @return the counters as they are now
     */
    public PortCounters portCounters(int port) {
        checkPort("portCounters", port);
        acquire();
        try {
            return ContextQueries.portCounters(handleAddress(), device().name(), port);
        } finally {
            release();
        }
    }

    /**
     * The valid entries of a port's GID table, by index ({@code ibv_query_gid_table}; with an
     * older libibverbs {@code ibv_query_gid} per index plus sysfs for type and netdev). Unused
     * (all-zero) slots are left out.
     *
     * @throws IllegalArgumentException when {@code port} is not in {@code 1..portCount()}
     * @param port the port number (1-based)
     * @return the valid entries of a port's GID table, by index
     */
    public List<GidEntry> gidTable(int port) {
        checkPort("ibv_query_gid_table", port);
        acquire();
        try {
            PortAttributes attributes = ContextQueries.queryPort(handleSegment(), port);
            long allSlots = 0;
            for (int p = 1; p <= portCount(); p++) {
                allSlots += p == port ? attributes.gidTableLength()
                        : ContextQueries.queryPort(handleSegment(), p).gidTableLength();
            }
            return ContextQueries.gidTable(handleSegment(), device.name(), attributes, allSlots);
        } finally {
            release();
        }
    }

    /**
     * One GID table entry ({@code ibv_query_gid_ex}; with an older libibverbs {@code ibv_query_gid}
     * plus sysfs). Empty when the slot is unused.
     *
     * @throws IllegalArgumentException when {@code port} is not a port or {@code index} is not in
     *         {@code 0..gid_tbl_len-1}
     * @param port the port number (1-based)
     * @param index the entry's index in the port's GID table
     * @return one GID table entry
     */
    public Optional<GidEntry> queryGid(int port, int index) {
        checkPort("ibv_query_gid_ex", port);
        acquire();
        try {
            PortAttributes attributes = ContextQueries.queryPort(handleSegment(), port);
            if (index < 0 || index >= attributes.gidTableLength()) {
                throw new IllegalArgumentException("ibv_query_gid_ex: index must be in 0.."
                        + (attributes.gidTableLength() - 1) + " (gid_tbl_len of port " + port + "), got " + index);
            }
            return ContextQueries.queryGid(handleSegment(), device.name(), attributes, index);
        } finally {
            release();
        }
    }

    /**
     * The RoCE v2 GID holding an IPv4-mapped address ({@code ::ffff:a.b.c.d}), lowest index first:
     * the source GID to use for RoCE v2 over IPv4. Chosen by type and address, never by a fixed
     * index. Empty on InfiniBand ports or when the interface has no IPv4 address.
     *
     * @param port the port number (1-based)
     * @return the RoCE v2 GID holding an IPv4-mapped address ({@code ::ffff:a.b.c.d}), lowest index first: the source GID to use for RoCE v2 over IPv4
     */
    public Optional<GidEntry> roceV2Ipv4Gid(int port) {
        return gidTable(port).stream().filter(GidEntry::isRoceV2Ipv4).findFirst();
    }

    /**
     * {@link #roceV2Ipv4Gid(int)}, or an exception that says why there is none and what to do:
     * the port's GIDs, and whether the interface lacks an IPv4 address or the port is not RoCE.
     *
     * @param port the port number (1-based)
     * @return the RoCE v2 IPv4-mapped GID of {@code port}
     * @throws IllegalArgumentException when {@code port} is not in {@code 1..portCount()}
     * @throws VerbsSetupException when the port has no such GID
     */
    public GidEntry requireRoceV2Ipv4Gid(int port) {
        List<GidEntry> gids = gidTable(port);
        return gids.stream().filter(GidEntry::isRoceV2Ipv4).findFirst()
                .orElseThrow(() -> VerbsSetupException.noRoceV2Ipv4Gid(device.name(), port, queryPort(port), gids));
    }

    /**
     * A P_Key table entry ({@code ibv_query_pkey}), as an unsigned 16-bit value in host order
     * (0xffff is the default full-membership key).
     *
     * @throws IllegalArgumentException when {@code port} is not a port or {@code index} is not in
     *         {@code 0..pkey_tbl_len-1}
     * @param port the port number (1-based)
     * @param index the entry's index in the port's P_Key table
     * @return a P_Key table entry ({@code ibv_query_pkey}), as an unsigned 16-bit value in host order (0xffff is the default full-membership key)
     */
    public int queryPkey(int port, int index) {
        checkPort("ibv_query_pkey", port);
        acquire();
        try {
            int length = ContextQueries.queryPort(handleSegment(), port).pkeyTableLength();
            if (index < 0 || index >= length) {
                throw new IllegalArgumentException("ibv_query_pkey: index must be in 0.." + (length - 1)
                        + " (pkey_tbl_len of port " + port + "), got " + index);
            }
            return ContextQueries.queryPkey(handleSegment(), port, index);
        } finally {
            release();
        }
    }

    /**
     * The index of a P_Key in the port's P_Key table ({@code ibv_get_pkey_index}), the index
     * {@link QueuePair#toInit(int, int, java.util.Set)} takes.
     *
     * @param port the port number (1-based)
     * @param pkey the P_Key, an unsigned 16-bit value in host order (as {@link #queryPkey} returns it)
     * @return the first index holding {@code pkey}, empty when the table does not hold it
     * @throws IllegalArgumentException when {@code port} is not a port or {@code pkey} is not in 0..0xffff
     * @throws VerbsUnsupportedException when libibverbs is older than 1.5 ({@link Capability#GET_PKEY_INDEX})
     */
    public OptionalInt pkeyIndex(int port, int pkey) {
        checkPort("ibv_get_pkey_index", port);
        if (pkey < 0 || pkey > 0xFFFF) {
            throw new IllegalArgumentException("ibv_get_pkey_index: pkey must be in 0..0xffff, got " + pkey);
        }
        Capability.GET_PKEY_INDEX.require("ibv_get_pkey_index");
        acquire();
        try {
            return ContextQueries.pkeyIndex(handleSegment(), port, pkey);
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_query_rt_values_ex} with {@code IBV_VALUES_MASK_RAW_CLOCK}: the device's
     * free-running hardware clock now, as the provider reports it in {@code raw_clock} (a
     * {@code struct timespec}), folded into nanoseconds. Not every provider has it (rxe does not:
     * {@link VerbsUnsupportedException} with EOPNOTSUPP).
     *
     * @return {@code raw_clock.tv_sec * 10^9 + raw_clock.tv_nsec}
     * @throws VerbsUnsupportedException if the provider lacks {@code query_rt_values} or refuses it
     * @throws VerbsException if the verb fails otherwise
     */
    public long queryRawClockNanos() {
        acquire(); // the query runs while the context stays open
        try {
            return ContextQueries.queryRawClockNanos(handleAddress());
        } finally {
            release();
        }
    }

    /**
     * Waits up to {@code timeout} for the next asynchronous event ({@code ibv_get_async_event}),
     * acknowledges it ({@code ibv_ack_async_event}) and returns its copy. Never blocks inside
     * native code: a virtual thread parks between checks, a platform thread waits in
     * {@code poll(2)} slices. The timeout follows the library's deadline rule ({@code docs/safety.md},
     * "Deadlines"): {@link Duration#ZERO} checks once, a huge one waits for ever.
     *
     * @throws NullPointerException when {@code timeout} is null
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws IllegalStateException when an async event listener is installed (it takes the
     *         events), or the context is closed (also when it closes during the wait)
     * @throws InterruptedException when the waiting thread is interrupted
     * @param timeout how long to wait at most
     * @return the event, or empty when none arrived within {@code timeout}
     */
    public Optional<AsyncEvent> pollAsyncEvent(Duration timeout) throws InterruptedException {
        long deadline = Deadline.start("ibv_get_async_event", timeout);
        if (isClosed()) {
            throw closedException();
        }
        if (asyncEvents.hasListener()) {
            throw new IllegalStateException("ibv_get_async_event: " + this
                    + " has an async event listener, which receives the events; remove it to poll");
        }
        return Optional.ofNullable(asyncEvents.awaitUntil(deadline));
    }

    /**
     * Delivers every asynchronous event to {@code listener} on a daemon virtual thread
     * ({@code panamaverbs-async-events-<device>}), one at a time, each already acknowledged,
     * until the listener is removed ({@code null}) or the context closes. Replacing the listener
     * keeps the thread. An exception thrown by the listener is logged and delivery goes on.
     *
     * @throws IllegalStateException when the context is closed
     * @param listener what receives each event, or {@code null} to stop delivery
     */
    public void setAsyncEventListener(Consumer<? super AsyncEvent> listener) {
        if (isClosed()) {
            throw closedException();
        }
        asyncEvents.setListener(listener);
    }

    /**
     * {@code ibv_alloc_pd}: a new protection domain.
     *
     * @return {@code ibv_alloc_pd}: a new protection domain
     */
    public ProtectionDomain allocateProtectionDomain() {
        return ProtectionDomain.allocate(this);
    }

    /**
     * {@code ibv_import_device}: a new context on the device behind {@code commandFd}, the
     * command file descriptor of a context opened elsewhere ({@link #commandFd()}, passed from
     * another process over a Unix socket, or this process's own). Its protection domains and
     * memory regions can then be imported by their kernel handles
     * ({@link #importProtectionDomain(int)}, {@link ProtectionDomain#importMemoryRegion(int)}).
     * As in C, {@code commandFd} must be a descriptor of its own (a {@code dup} of the exporter's,
     * or one received through {@code SCM_RIGHTS}): on success it becomes the imported context's
     * and closing the context ({@code ibv_close_device}) closes it; on failure it stays the
     * caller's. Within one process, {@link #importDuplicate()} does the {@code dup}.
     *
     * @param commandFd an open command fd of an RDMA device, handed over
     * @return the imported context, a root of its own resource tree
     * @throws IllegalArgumentException if {@code commandFd} is negative
     * @throws VerbsUnsupportedException when the provider cannot import a context (its errno), or
     *         libibverbs is older than 1.10 ({@link Capability#IMPORT})
     * @throws VerbsException with the errno on another failure (EBADF, ENODEV...)
     * @throws VerbsUnavailableException when libibverbs is unavailable
     */
    public static Context importFrom(int commandFd) {
        return importFd(commandFd, false);
    }

    /**
     * {@code ibv_import_device(commandFd)}; when it fails and {@code closeOnFailure}, closes
     * {@code commandFd} (a duplicate made for it). Once imported, the fd is the context's: a
     * failure after that closes the context, and with it the fd, never the fd again.
     */
    private static Context importFd(int commandFd, boolean closeOnFailure) {
        String verb = "ibv_import_device";
        if (commandFd < 0) {
            throw new IllegalArgumentException(verb + ": cmd_fd must be an open fd, got " + commandFd);
        }
        Availability.ensureVerbs();
        Capability.IMPORT.require(verb);
        MemorySegment handle;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long context = ObjectVerbs.importDevice(state, commandFd);
            int errno = CallState.errno(state);
            if (context == 0) {
                if (closeOnFailure) {
                    dev.panamaverbs.gateway.Libc.close(commandFd);
                }
                throw NativeCalls.failure(verb, errno != 0 ? errno : Errno.ENODEV);
            }
            handle = Pointers.sized(MemorySegment.ofAddress(context), ibv_context.SIZE);
        }
        try {
            return new Context(Device.describe(Pointers.sized(ibv_context.device(handle), ibv_device.SIZE)), handle);
        } catch (RuntimeException | Error e) {
            closeDeviceQuietly(handle, e);
            throw e;
        }
    }

    /**
     * {@code ibv_import_device} on a duplicate ({@code fcntl(F_DUPFD_CLOEXEC)}) of this context's
     * command fd: a second context of this process on the same kernel objects, into which this
     * context's protection domains and memory regions can be imported by handle. Independent of
     * this one in the resource tree (a root); closing it closes the duplicate.
     *
     * @return the imported context
     * @throws VerbsUnsupportedException when the provider cannot import a context (its errno), or
     *         libibverbs is older than 1.10 ({@link Capability#IMPORT})
     * @throws VerbsException with the errno of {@code fcntl} or {@code ibv_import_device} on another failure
     * @throws IllegalStateException if closed
     */
    public Context importDuplicate() {
        Capability.IMPORT.require("ibv_import_device");
        int copy;
        acquire();
        try {
            copy = dev.panamaverbs.gateway.Libc.duplicate(ibv_context.cmd_fd(handleSegment()));
        } finally {
            release();
        }
        if (copy < 0) {
            throw NativeCalls.failure("ibv_import_device", -copy);
        }
        return importFd(copy, true);
    }

    /**
     * The context's command file descriptor ({@code ibv_context.cmd_fd}), what
     * {@link #importFrom(int)} takes in another process (or this one). It belongs to the
     * context: closed with it.
     *
     * @return the command fd
     * @throws IllegalStateException if closed
     */
    public int commandFd() {
        requireOpen(this);
        return ibv_context.cmd_fd(handleSegment());
    }

    /**
     * {@code ibv_import_pd}: the protection domain with kernel handle {@code pdHandle}
     * ({@link ProtectionDomain#kernelHandle()} in the process that allocated it), on this context
     * (imported from that process's with {@link #importFrom(int)}). A child of this context;
     * closing it calls {@code ibv_unimport_pd}, which frees only this process's object: the
     * exporter deallocates the domain.
     *
     * @param pdHandle the kernel handle of the domain
     * @return the imported domain
     * @throws VerbsUnsupportedException when the provider cannot import (its errno), or
     *         libibverbs is older than 1.10 ({@link Capability#IMPORT})
     * @throws VerbsException with the errno on another failure (e.g. a handle this context's fd does not hold)
     * @throws IllegalStateException if closed
     */
    public ProtectionDomain importProtectionDomain(int pdHandle) {
        return ProtectionDomain.importFrom(this, pdHandle);
    }

    /**
     * {@code ibv_alloc_dm}: {@code length} bytes of memory on the device, aligned to
     * {@code 2^logAlignment} bytes. See {@link DeviceMemory}.
     *
     * @param length       the bytes, above 0 (at most {@link ExtendedDeviceAttributes#maxDeviceMemorySize()})
     * @param logAlignment {@code log_align_req}, 0..63
     * @return the device memory
     * @throws IllegalArgumentException for a length not above 0 or an alignment out of range
     * @throws VerbsUnsupportedException if the provider has no device memory (SoftRoCE: EOPNOTSUPP)
     * @throws VerbsException if the verb fails otherwise
     */
    public DeviceMemory allocateDeviceMemory(long length, int logAlignment) {
        return DeviceMemory.allocate(this, length, logAlignment);
    }

    /**
     * {@code ibv_alloc_td}: a thread domain, see {@link ThreadDomain}.
     *
     * @return the thread domain
     * @throws VerbsUnsupportedException if the provider has no thread domains (SoftRoCE: EOPNOTSUPP)
     * @throws VerbsException if the verb fails otherwise
     */
    public ThreadDomain allocateThreadDomain() {
        return ThreadDomain.allocate(this);
    }

    /**
     * {@code ibv_open_xrcd} with no file ({@code fd -1}): an XRC domain of this process, see {@link XrcDomain}.
     *
     * @return the XRC domain
     * @throws VerbsUnsupportedException if the provider has no XRC (SoftRoCE: EOPNOTSUPP)
     * @throws VerbsException if the verb fails otherwise
     */
    public XrcDomain openXrcDomain() {
        return XrcDomain.open(this, -1, true);
    }

    /**
     * {@code ibv_open_xrcd} on the file {@code fd}: processes opening the same file share the
     * domain; {@code create} ({@code O_CREAT}) makes it when no process did yet.
     *
     * @param fd     an open file descriptor, or -1 for a domain of this process only
     * @param create whether to create the domain when the file has none
     * @return the XRC domain
     * @throws IllegalArgumentException for an fd below -1
     * @throws VerbsUnsupportedException if the provider has no XRC
     * @throws VerbsException if the verb fails otherwise
     */
    public XrcDomain openXrcDomain(int fd, boolean create) {
        return XrcDomain.open(this, fd, create);
    }

    /**
     * {@code ibv_create_rwq_ind_table}: an indirection table over {@code workQueues} (in order),
     * for RSS. See {@link IndirectionTable}.
     *
     * @param workQueues the work queues, a power of two of them, of this context
     * @return the table
     * @throws IllegalArgumentException for a count that is not a power of two or a queue of another context
     * @throws VerbsUnsupportedException if the provider has no indirection tables
     * @throws VerbsException if the verb fails otherwise
     */
    public IndirectionTable createIndirectionTable(java.util.List<WorkQueue> workQueues) {
        return IndirectionTable.create(this, workQueues);
    }

    /**
     * {@code ibv_create_counters}: a counters object for flows, see {@link Counters}.
     *
     * @return the counters
     * @throws VerbsUnsupportedException if the provider has no counters (SoftRoCE: EOPNOTSUPP)
     * @throws VerbsException if the verb fails otherwise
     */
    public Counters createCounters() {
        return Counters.create(this);
    }

    /**
     * {@code ibv_create_comp_channel}: a channel that CQs signal completions through.
     *
     * @return {@code ibv_create_comp_channel}: a channel that CQs signal completions through
     */
    public CompletionChannel createCompletionChannel() {
        return CompletionChannel.create(this);
    }

    /**
     * {@code ibv_create_cq} with at least {@code cqe} entries, no channel, vector 0.
     *
     * @param cqe the number of completion queue entries
     * @return {@code ibv_create_cq} with at least {@code cqe} entries, no channel, vector 0
     */
    public CompletionQueue createCompletionQueue(int cqe) {
        return CompletionQueue.create(this, cqe, null, 0);
    }

    /**
     * {@code ibv_create_cq} with at least {@code cqe} entries, signalling through {@code channel} on {@code vector}.
     *
     * @param cqe the number of completion queue entries
     * @param channel the completion channel
     * @param vector the completion vector
     * @return {@code ibv_create_cq} with at least {@code cqe} entries, signalling through {@code channel} on {@code vector}
     */
    public CompletionQueue createCompletionQueue(int cqe, CompletionChannel channel, int vector) {
        return CompletionQueue.create(this, cqe, channel, vector);
    }

    /**
     * {@code ibv_create_cq_ex}: an extended CQ (completion timestamps and other fields, as {@code options} asks).
     *
     * @param options the queue's size and the completion fields it reports
     * @return the extended completion queue
     */
    public CompletionQueue createCompletionQueue(CompletionQueueOptions options) {
        return CompletionQueue.createExtended(this, options);
    }

    /** Rejects a port number outside {@code 1..portCount()}, naming the verb; 0 and below without a query. */
    private void checkPort(String verb, int port) {
        checkPortRange(verb, port, port < 1 ? -1 : portCount());
    }

    /** Rejects a port number outside {@code 1..portCount} ({@code -1}: count not known); static for unit tests. */
    static void checkPortRange(String verb, int port, int portCount) {
        if (port < 1) {
            throw new IllegalArgumentException(verb + ": port must be at least 1 (ports are numbered from 1), got " + port);
        }
        if (portCount >= 0 && port > portCount) {
            throw new IllegalArgumentException(verb + ": port must be in 1.." + portCount + ", got " + port);
        }
    }

    @Override
    protected void destroy() {
        asyncEvents.stop();
        if (borrowedFrom != null) {
            return; // librdmacm's: it closes the device itself
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = IbverbsCalls.ibv_close_device(state, handleSegment());
            NativeCalls.checkErrno("ibv_close_device", rc, CallState.errno(state));
        }
    }

    /** Closes a just-opened context whose Java wrapper could not be built, keeping the first failure. */
    static void closeDeviceQuietly(MemorySegment context, Throwable failure) {
        try (Arena arena = Arena.ofConfined()) {
            int ignored = IbverbsCalls.ibv_close_device(CallState.allocate(arena), context);
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    protected String describe() {
        return borrowedFrom != null ? device.name() + ", rdma_cm" : device.name();
    }
}
