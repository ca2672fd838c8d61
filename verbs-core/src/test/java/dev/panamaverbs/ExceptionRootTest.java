package dev.panamaverbs;

import java.io.IOException;
import java.net.URISyntaxException;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every exception type of the API extends {@link VerbsException}: one catch catches them all. */
class ExceptionRootTest {
    @Test
    void everyExceptionOfTheLibraryExtendsVerbsException() throws IOException, URISyntaxException, ClassNotFoundException {
        List<String> names = CompiledClasses.binaryNames().stream().filter(name -> !name.contains("$")).toList();
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
