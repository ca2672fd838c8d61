/** The fallback application as a module (the module-path twin of the class-path build). */
module example.fallback {
    requires dev.panamaverbs.core;
}
