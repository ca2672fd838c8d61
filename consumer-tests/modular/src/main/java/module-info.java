/** A user's modular application: the README's quick start. */
module example.modular {
    requires dev.panamaverbs.core;
}
