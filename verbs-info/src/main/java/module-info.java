/**
 * verbs-info: {@code ibv_devinfo -v} on the panama-verbs API, plus the GID table with types and
 * netdevs and the library's availability, version and capabilities, as text or JSON. A tool, not
 * deployed; {@code ./verbs info} runs it.
 */
module dev.panamaverbs.info {
    requires dev.panamaverbs.core;
}
