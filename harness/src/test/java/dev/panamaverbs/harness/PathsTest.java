package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PathsTest {
    @TempDir
    Path temp;

    @Test
    void aClassFolderBecomesAJarWithTheSameEntriesAndBytes() throws IOException {
        Path classes = Files.createDirectories(temp.resolve("classes/dev/example"));
        Files.write(classes.resolve("A.class"), new byte[] {(byte) 0xca, (byte) 0xfe, 1, 2});
        Files.writeString(temp.resolve("classes/resource.txt"), "text");
        Path jar = Paths.jar(temp.resolve("classes"), temp.resolve("classes.jar"));
        try (JarFile file = new JarFile(jar.toFile())) {
            List<String> names = new ArrayList<>();
            file.stream().forEach(entry -> names.add(entry.getName()));
            assertEquals(List.of("dev/", "dev/example/", "dev/example/A.class", "resource.txt"), names);
            assertArrayEquals(new byte[] {(byte) 0xca, (byte) 0xfe, 1, 2},
                    file.getInputStream(file.getEntry("dev/example/A.class")).readAllBytes());
            assertEquals("text", new String(file.getInputStream(file.getEntry("resource.txt")).readAllBytes()));
        }
    }
}
