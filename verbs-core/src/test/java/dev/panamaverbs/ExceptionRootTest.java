package dev.panamaverbs;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every exception type of the API extends {@link VerbsException}: one catch catches them all. */
class ExceptionRootTest {
    @Test
    void everyExceptionOfTheLibraryExtendsVerbsException() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(VerbsException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names;
        try (Stream<Path> files = Files.walk(classes)) {
            names = files.map(classes::relativize).map(Path::toString)
                    .filter(name -> name.endsWith(".class") && !name.contains("$") && !name.contains("-info"))
                    .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .toList();
        }
        int exceptions = 0;
        for (String name : names) {
            Class<?> type = Class.forName(name, false, getClass().getClassLoader());
            if (Throwable.class.isAssignableFrom(type)) {
                exceptions++;
                assertTrue(VerbsException.class.isAssignableFrom(type), name + " does not extend VerbsException");
            }
        }
        // VerbsException, its unavailable/setup/unsupported kinds, CompletionFailedException,
        // ConnectionException (+ rejected), EndpointExchangeException, ChannelFailedException, ChannelClosedException,
        // WaitTimeoutException, PollerClosedException
        assertEquals(12, exceptions, "the exception types found: update this count when adding one");
    }
}
