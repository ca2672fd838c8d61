package dev.panamaverbs;

import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.values.FlowType;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_flow_attr;
import dev.panamaverbs.ffm.ibv_flow_spec;
import dev.panamaverbs.ffm.ibv_flow_spec_action_tag;
import dev.panamaverbs.ffm.ibv_flow_eth_filter;
import dev.panamaverbs.ffm.ibv_flow_ipv4_filter;
import dev.panamaverbs.ffm.ibv_flow_spec_counter_action;
import dev.panamaverbs.ffm.ibv_flow_spec_eth;
import dev.panamaverbs.ffm.ibv_flow_spec_ipv4;
import dev.panamaverbs.ffm.ibv_flow_spec_tcp_udp;
import dev.panamaverbs.ffm.ibv_flow_tcp_udp_filter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A flow steering rule for {@link QueuePair#createFlow(FlowRule)} ({@code struct ibv_flow_attr}
 * followed by its specs): which packets of a port go to the queue pair. Matches are exact on the
 * fields given (their masks all ones); header fields are written in network byte order, as the
 * specs want them. Immutable; build one with {@link #builder(int)}.
 */
public final class FlowRule {
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private final FlowType type;
    private final int port;
    private final int priority;
    private final List<Spec> specs;
    private final Counters counters;

    /**
     * One spec: its C type and size, and how it writes its fields at a segment of that size. The
     * header every {@code ibv_flow_spec_*} starts with ({@code type}, {@code size}) is written here.
     */
    private abstract static class Spec {
        private final int type;
        /** The spec's size in bytes, {@code sizeof} its C struct. */
        final long size;

        Spec(int type, long size) {
            this.type = type;
            this.size = size;
        }

        /** Writes the header, then the fields. */
        final void write(MemorySegment at) {
            ibv_flow_spec.hdr.type(at, type);
            ibv_flow_spec.hdr.size(at, (short) size);
            writeFields(at);
        }

        abstract void writeFields(MemorySegment at);
    }

    private FlowRule(Builder builder) {
        this.type = builder.type;
        this.port = builder.port;
        this.priority = builder.priority;
        this.specs = List.copyOf(builder.specs);
        this.counters = builder.counters;
    }

    /**
     * A rule for packets arriving on {@code port}.
     *
     * @param port the port number, 1..255
     * @return the builder
     * @throws IllegalArgumentException for a port out of range
     */
    public static Builder builder(int port) {
        return new Builder(port);
    }

    /**
     * The counters the rule counts into, if any.
     *
     * @return the counters, or null
     */
    Counters counters() {
        return counters;
    }

    /**
     * The rule as C lays it out: {@code struct ibv_flow_attr}, then each spec at the offset the
     * sizes before it add up to. Call inside the acquire of the counters, whose address it writes.
     */
    MemorySegment encode(Arena arena) {
        long size = ibv_flow_attr.SIZE;
        for (Spec spec : specs) {
            size += spec.size;
        }
        MemorySegment attr = arena.allocate(size, 8);
        ibv_flow_attr.type(attr, type.value());
        ibv_flow_attr.size(attr, (short) size);
        ibv_flow_attr.priority(attr, (short) priority);
        ibv_flow_attr.num_of_specs(attr, (byte) specs.size());
        ibv_flow_attr.port(attr, (byte) port);
        long offset = ibv_flow_attr.SIZE;
        for (Spec spec : specs) {
            spec.write(attr.asSlice(offset, spec.size));
            offset += spec.size;
        }
        return attr;
    }

    @Override
    public String toString() {
        return "FlowRule[" + type + ", port " + port + ", priority " + priority + ", " + specs.size() + " specs]";
    }

    /** Builds a {@link FlowRule}; every setter checks its argument at once. */
    public static final class Builder {
        private final int port;
        private FlowType type = FlowType.NORMAL;
        private int priority;
        private final List<Spec> specs = new ArrayList<>();
        private Counters counters;

        private Builder(int port) {
            if (port < 1 || port > 255) {
                throw new IllegalArgumentException("ibv_create_flow: port must be 1..255, got " + port);
            }
            this.port = port;
        }

        /**
         * What the rule steers; {@link FlowType#NORMAL} unless set.
         *
         * @param type the kind of flow rule
         * @return this builder
         */
        public Builder type(FlowType type) {
            this.type = Objects.requireNonNull(type, "ibv_create_flow: type");
            return this;
        }

        /**
         * {@code priority}: lower values win; 0 unless set.
         *
         * @param priority 0..65535
         * @return this builder
         */
        public Builder priority(int priority) {
            if (priority < 0 || priority > 0xFFFF) {
                throw new IllegalArgumentException("ibv_create_flow: priority is a uint16_t, got " + priority);
            }
            this.priority = priority;
            return this;
        }

        /**
         * {@code IBV_FLOW_SPEC_ETH}: packets to {@code destinationMac}, and of {@code etherType}
         * unless it is 0.
         *
         * @param destinationMac six bytes
         * @param etherType      0..65535, 0 for any
         * @return this builder
         */
        public Builder ethernet(byte[] destinationMac, int etherType) {
            Objects.requireNonNull(destinationMac, "ibv_create_flow: destination MAC");
            if (destinationMac.length != 6 || etherType < 0 || etherType > 0xFFFF) {
                throw new IllegalArgumentException("ibv_create_flow: a MAC is 6 bytes and an ether type a uint16_t");
            }
            byte[] mac = destinationMac.clone();
            return add(new Spec(VerbsConstants.IBV_FLOW_SPEC_ETH, ibv_flow_spec_eth.SIZE) {
                void writeFields(MemorySegment at) {
                    MemorySegment val = ibv_flow_spec_eth.val(at);
                    MemorySegment mask = ibv_flow_spec_eth.mask(at);
                    MemorySegment.copy(mac, 0, val, ValueLayout.JAVA_BYTE, ibv_flow_eth_filter.dst_mac$OFFSET, 6);
                    mask.asSlice(ibv_flow_eth_filter.dst_mac$OFFSET, 6).fill((byte) 0xFF);
                    if (etherType != 0) {
                        val.set(BE_SHORT, ibv_flow_eth_filter.ether_type$OFFSET, (short) etherType);
                        mask.set(BE_SHORT, ibv_flow_eth_filter.ether_type$OFFSET, (short) 0xFFFF);
                    }
                }
            });
        }

        /**
         * {@code IBV_FLOW_SPEC_IPV4}: packets from {@code source} and to {@code destination}
         * (either may be null for any).
         *
         * @param source      the source address, or null
         * @param destination the destination address, or null
         * @return this builder
         */
        public Builder ipv4(Inet4Address source, Inet4Address destination) {
            byte[] src = source == null ? null : source.getAddress();
            byte[] dst = destination == null ? null : destination.getAddress();
            return add(new Spec(VerbsConstants.IBV_FLOW_SPEC_IPV4, ibv_flow_spec_ipv4.SIZE) {
                void writeFields(MemorySegment at) {
                    address(at, src, ibv_flow_ipv4_filter.src_ip$OFFSET);
                    address(at, dst, ibv_flow_ipv4_filter.dst_ip$OFFSET);
                }

                private void address(MemorySegment at, byte[] ip, long field) {
                    if (ip != null) {
                        MemorySegment.copy(ip, 0, ibv_flow_spec_ipv4.val(at), ValueLayout.JAVA_BYTE, field, 4);
                        ibv_flow_spec_ipv4.mask(at).asSlice(field, 4).fill((byte) 0xFF);
                    }
                }
            });
        }

        /**
         * {@code IBV_FLOW_SPEC_TCP}: TCP packets to {@code destinationPort} and from
         * {@code sourcePort} (0 for any).
         *
         * @param destinationPort 0..65535
         * @param sourcePort      0..65535
         * @return this builder
         */
        public Builder tcp(int destinationPort, int sourcePort) {
            return add(ports(VerbsConstants.IBV_FLOW_SPEC_TCP, destinationPort, sourcePort));
        }

        /**
         * {@code IBV_FLOW_SPEC_UDP}: UDP packets to {@code destinationPort} and from
         * {@code sourcePort} (0 for any).
         *
         * @param destinationPort 0..65535
         * @param sourcePort      0..65535
         * @return this builder
         */
        public Builder udp(int destinationPort, int sourcePort) {
            return add(ports(VerbsConstants.IBV_FLOW_SPEC_UDP, destinationPort, sourcePort));
        }

        private static Spec ports(int specType, int destinationPort, int sourcePort) {
            if (destinationPort < 0 || destinationPort > 0xFFFF || sourcePort < 0 || sourcePort > 0xFFFF) {
                throw new IllegalArgumentException("ibv_create_flow: ports are uint16_t, got " + destinationPort + " and "
                        + sourcePort);
            }
            return new Spec(specType, ibv_flow_spec_tcp_udp.SIZE) {
                void writeFields(MemorySegment at) {
                    port(at, destinationPort, ibv_flow_tcp_udp_filter.dst_port$OFFSET);
                    port(at, sourcePort, ibv_flow_tcp_udp_filter.src_port$OFFSET);
                }

                private void port(MemorySegment at, int port, long field) {
                    if (port != 0) {
                        ibv_flow_spec_tcp_udp.val(at).set(BE_SHORT, field, (short) port);
                        ibv_flow_spec_tcp_udp.mask(at).set(BE_SHORT, field, (short) 0xFFFF);
                    }
                }
            };
        }

        /**
         * {@code IBV_FLOW_SPEC_ACTION_COUNT}: the packets the rule takes are counted in
         * {@code counters} (attach its entries first, {@link Counters#attach}). Closing the
         * counters closes the flow first.
         *
         * @param counters the counters, of the queue pair's context
         * @return this builder
         */
        public Builder count(Counters counters) {
            Objects.requireNonNull(counters, "ibv_create_flow: counters");
            if (this.counters != null) {
                throw new IllegalArgumentException("ibv_create_flow: the rule counts into one counters object");
            }
            this.counters = counters;
            return add(new Spec(VerbsConstants.IBV_FLOW_SPEC_ACTION_COUNT, ibv_flow_spec_counter_action.SIZE) {
                void writeFields(MemorySegment at) {
                    ibv_flow_spec_counter_action.counters(at, counters.handleSegment());
                }
            });
        }

        /**
         * {@code IBV_FLOW_SPEC_ACTION_TAG}: receive completions of the packets the rule takes carry
         * {@code tag} ({@link Completions#flowTag(int)}, with {@link CompletionField#FLOW_TAG}).
         *
         * @param tag the tag, a uint32_t
         * @return this builder
         */
        public Builder tag(int tag) {
            return add(new Spec(VerbsConstants.IBV_FLOW_SPEC_ACTION_TAG, ibv_flow_spec_action_tag.SIZE) {
                void writeFields(MemorySegment at) {
                    ibv_flow_spec_action_tag.tag_id(at, tag);
                }
            });
        }

        private Builder add(Spec spec) {
            if (specs.size() == 255) {
                throw new IllegalArgumentException("ibv_create_flow: num_of_specs is a uint8_t");
            }
            specs.add(spec);
            return this;
        }

        /**
         * The rule.
         *
         * @return the rule
         */
        public FlowRule build() {
            return new FlowRule(this);
        }
    }
}
