package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * ./verbs's Java side: what the scripts used to compute in bash. The scripts only start things
 * (mvn, java, the VM); they call this for the rest.
 * <pre>
 * java -jar harness/target/harness.jar --root DIR stage-tests STAGE_DIR
 * java -jar harness/target/harness.jar --root DIR stage-examples STAGE_DIR
 * java -jar harness/target/harness.jar --root DIR summary [options of SummaryOptions]
 * </pre>
 * Exit status: staging 0, or 1 with the reason on stderr; summary 0 (green) or 1 (red); 2 on a
 * usage error. CI=true in the environment makes the summary fail when no device test ran.
 */
public final class Harness {
    private static final String USAGE = "usage: harness --root DIR (stage-tests DIR | stage-examples DIR | summary [options] | link-control RUN_DIR)";

    private Harness() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args)));
    }

    private static int run(List<String> args) {
        if (args.size() < 3 || !args.getFirst().equals("--root")) {
            System.err.println(USAGE);
            return 2;
        }
        Path root = Path.of(args.get(1)).toAbsolutePath().normalize();
        String command = args.get(2);
        List<String> rest = args.subList(3, args.size());
        try {
            return switch (command) {
                case "stage-tests" -> {
                    new DeviceTestStaging(root).stage(stageDir(root, rest));
                    yield 0;
                }
                case "stage-examples" -> {
                    new ExampleStaging(root).stage(stageDir(root, rest));
                    yield 0;
                }
                case "summary" -> {
                    TestSummary.Result summary = TestSummary.of(SummaryOptions.parse(root, rest, "true".equals(System.getenv("CI"))));
                    summary.lines().forEach(System.out::println);
                    yield summary.status();
                }
                case "link-control" -> {
                    new LinkControl(stageDir(root, rest)).serve();
                    yield 0;
                }
                default -> throw new IllegalArgumentException("unknown command: " + command);
            };
        } catch (IllegalArgumentException e) {
            System.err.println("harness: " + e.getMessage() + "\n" + USAGE);
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (HarnessException | IOException e) {
            System.err.println("verbs: " + e.getMessage());
            return 1;
        }
    }

    private static Path stageDir(Path root, List<String> rest) {
        if (rest.size() != 1) {
            throw new IllegalArgumentException(rest.size() + " folders given, one expected");
        }
        return root.resolve(rest.getFirst());
    }
}
