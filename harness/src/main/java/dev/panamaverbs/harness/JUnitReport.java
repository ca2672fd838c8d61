package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * One JUnit XML report, as Surefire and the ConsoleLauncher write them: {@code <testsuite>}
 * elements whose {@code tests}, {@code failures}, {@code errors} and {@code skipped} attributes
 * count their {@code <testcase>}s.
 */
final class JUnitReport {
    private final Document document;

    private JUnitReport(Document document) {
        this.document = document;
    }

    static JUnitReport read(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            return new JUnitReport(factory.newDocumentBuilder().parse(file.toFile()));
        } catch (IOException | SAXException | ParserConfigurationException e) {
            throw new HarnessException("cannot read the JUnit report " + file + ": " + e.getMessage(), e);
        }
    }

    /** The sums over every {@code <testsuite>} in the report. */
    TestCounts counts() {
        TestCounts counts = TestCounts.NONE;
        for (Element suite : elements("testsuite")) {
            counts = counts.plus(new TestCounts(count(suite, "tests"), count(suite, "failures") + count(suite, "errors"),
                    count(suite, "skipped")));
        }
        return counts;
    }

    /** The {@code classname} of every test case. */
    List<String> testClasses() {
        return elements("testcase").stream().map(test -> test.getAttribute("classname")).toList();
    }

    /**
     * One {@code <testcase>}: its class, name, whether it failed (failure or error) or was skipped,
     * and for a failed one the first line of its failure's message (empty when none).
     */
    record TestCase(String className, String name, boolean failed, boolean skipped, String failure) {
        /** The simple class name and the test name, as the summary lists a failed test. */
        String shortName() {
            return className.substring(className.lastIndexOf('.') + 1) + "." + name;
        }
    }

    /** Every test case, in report order. */
    List<TestCase> testCases() {
        return elements("testcase").stream().map(test -> {
            List<Element> problems = new ArrayList<>(children(test, "failure"));
            problems.addAll(children(test, "error"));
            String failure = problems.isEmpty() ? "" : firstLine(problems.getFirst().getAttribute("message"));
            return new TestCase(test.getAttribute("classname"), test.getAttribute("name"), !problems.isEmpty(),
                    !children(test, "skipped").isEmpty(), failure);
        }).toList();
    }

    /** The failed test cases, in report order. */
    List<TestCase> failedCases() {
        return testCases().stream().filter(TestCase::failed).toList();
    }

    /** The {@code message} of every {@code <failure>} (not errors). */
    List<String> failureMessages() {
        return elements("failure").stream().map(failure -> failure.getAttribute("message")).toList();
    }

    private static List<Element> children(Element parent, String tag) {
        return listed(parent.getElementsByTagName(tag));
    }

    /** The first line of a failure message, at most 200 characters: enough to tell failures apart in the summary. */
    private static String firstLine(String message) {
        String line = message.strip().lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    private List<Element> elements(String tag) {
        return listed(document.getElementsByTagName(tag));
    }

    private static List<Element> listed(NodeList nodes) {
        List<Element> elements = new ArrayList<>(nodes.getLength());
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }

    private static int count(Element suite, String attribute) {
        String value = suite.getAttribute(attribute);
        return value.matches("[0-9]+") ? Integer.parseInt(value) : 0;
    }
}
