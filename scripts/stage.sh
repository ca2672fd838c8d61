# Stages what the JUnit Platform launcher needs to run the device tests outside Maven, after a
# build (`mvn install` or `-DskipTests`). Source it (needs common.sh and find_jdk) and call
# stage_device_tests DIR; it writes
#   DIR/modules/     our module jars + JUnit + slf4j (all real modules, for --module-path)
#   DIR/java.args    a java @argfile: module path, class path, patches, native access
#   DIR/scan.args    the --scan-class-path roots for ConsoleLauncher
# Each module's test classes go on the class path (so ConsoleLauncher finds them) and are also
# patched into their module (so tests in a module's own package see package-private API and
# load in the module, as under Surefire; tests in other packages are added to the module).
# shellcheck shell=bash

# Reactor modules whose jars and test classes take part in device tests (benchmarks does not).
STAGE_MODULE_DIRS=(verbs-ffm verbs-loader verbs-core verbs-testkit)
# Modules allowed to call restricted FFM methods (the test classes patched into them included).
STAGE_NATIVE_ACCESS=dev.panamaverbs.ffm,dev.panamaverbs.loader

# Copies JUnit (platform console, launcher, jupiter) and slf4j into $1, cached per launcher pom.
stage_launcher_jars() {
    local dest=$1 pom=$VERBS_ROOT/verbs-testkit/launcher/pom.xml key cache
    key=$(cat "$pom" "$VERBS_ROOT/pom.xml" | sha256sum | cut -c1-16)
    cache=$VERBS_CACHE/launcher/$key
    if [ ! -f "$cache/.ready" ]; then
        say "fetching the JUnit launcher jars (Maven Central) into $cache"
        rm -rf "$cache"
        mkdir -p "$cache"
        mvn_run -q -f "$pom" dependency:copy-dependencies -DoutputDirectory="$cache" >&2 \
            || die "could not fetch the JUnit launcher jars (mvn dependency:copy-dependencies -f $pom)"
        touch "$cache/.ready"
    fi
    cp "$cache"/*.jar "$dest/"
}

# Prints the module name declared by a modular jar, e.g. dev.panamaverbs.core.
stage_module_name() {
    "$JAVA_HOME/bin/jar" --describe-module --file "$1" 2>/dev/null | head -n1 | sed -n 's/^\([^ @]*\).*/\1/p'
}

# Prints the packages (dotted) holding class files under a class folder.
stage_packages() {
    (cd "$1" && find . -name '*.class' ! -name module-info.class -printf '%h\n') \
        | sed 's|^\./||; s|^\.$||; s|/|.|g' | grep -v '^$' | sort -u
}

# Prints the packages a modular jar holds (exported or not), one per line.
stage_jar_packages() {
    "$JAVA_HOME/bin/jar" --describe-module --file "$1" 2>/dev/null \
        | sed -n 's/^\(exports\|contains\) \([^ ]*\).*/\2/p'
}

stage_device_tests() {
    local dir=$1 m jar name tests pkg reads entry
    local -a scan=() patches=() mods=()
    # package -> module: a package in two modules (main or patched tests) breaks the boot layer,
    # so say which instead of letting java fail with a split-package error.
    local -A owner=()
    rm -rf "$dir"
    mkdir -p "$dir/modules"
    stage_launcher_jars "$dir/modules"
    for m in "${STAGE_MODULE_DIRS[@]}"; do
        jar=$(ls "$VERBS_ROOT/$m/target/$m"-*.jar 2>/dev/null | grep -vE -- '-(tests|sources|javadoc)\.jar$' | head -n1 || true)
        [ -n "$jar" ] || die "no $m jar under $m/target: build first (mvn install)"
        cp "$jar" "$dir/modules/"
        name=$(stage_module_name "$jar")
        [ -n "$name" ] || die "$jar has no module descriptor"
        while read -r pkg; do [ -n "$pkg" ] && owner[$pkg]=$name; done < <(stage_jar_packages "$jar")
        mods+=("$name:$m")
    done
    for entry in "${mods[@]}"; do
        name=${entry%%:*} m=${entry#*:}
        tests=$VERBS_ROOT/$m/target/test-classes
        [ -d "$tests" ] || continue
        scan+=("$tests")
        patches+=("--patch-module" "$name=$tests")
        # Test code reads JUnit (and anything on the class path); JUnit reflects into every test package.
        reads="org.junit.jupiter.api,org.junit.jupiter.params,ALL-UNNAMED"
        patches+=("--add-reads" "$name=$reads")
        while read -r pkg; do
            [ -n "$pkg" ] || continue
            if [ -n "${owner[$pkg]:-}" ] && [ "${owner[$pkg]}" != "$name" ]; then
                die "test package $pkg of $m is also in module ${owner[$pkg]}: give $m's tests a package of their own (e.g. $pkg.${m#verbs-}test)"
            fi
            owner[$pkg]=$name
            patches+=("--add-opens" "$name/$pkg=org.junit.platform.commons")
        done < <(stage_packages "$tests")
    done
    {
        echo "--module-path"
        echo "$dir/modules"
        if [ ${#scan[@]} -gt 0 ]; then
            echo "--class-path"
            (IFS=:; echo "${scan[*]}")
        fi
        echo "--add-modules"
        echo "ALL-MODULE-PATH"
        echo "--enable-native-access=$STAGE_NATIVE_ACCESS"
        echo "--illegal-native-access=deny"
        printf '%s\n' "${patches[@]}"
    } >"$dir/java.args"
    : >"$dir/scan.args"
    for m in "${scan[@]}"; do printf '%s\n%s\n' "--scan-class-path" "$m" >>"$dir/scan.args"; done
}
