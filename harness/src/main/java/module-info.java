/** ./verbs test's staging and summary: a build tool of this repository, not a library. */
module dev.panamaverbs.harness {
    requires java.xml;
}
