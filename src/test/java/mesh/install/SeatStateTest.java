package mesh.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SeatStateTest: the seat's files a state backup holds, and where a rebuild may write them back. */
class SeatStateTest {

    private static Path seat(Path dir) throws IOException {
        for (String file : SeatState.FILES) {
            Files.createDirectories(dir.resolve(file).getParent());
            Files.writeString(dir.resolve(file), "content of " + file + "\n");
        }
        Files.writeString(dir.resolve("install/steps"), "preflight\n");
        return dir;
    }

    @Test
    void theSeatsFilesGoBackWhereTheyWerePrivate(@TempDir Path dir) throws Exception {
        Map<String, byte[]> parts = SeatState.parts(seat(dir.resolve("old")));
        assertEquals(SeatState.FILES.size(), parts.size());
        Path fresh = dir.resolve("new");
        assertEquals(List.of(), SeatState.problems(fresh, parts));
        SeatState.write(fresh, parts);
        for (String file : SeatState.FILES) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("old").resolve(file)), Files.readAllBytes(fresh.resolve(file)), file);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve(file))), file);
        }
    }

    @Test
    void aMachineWithAMeshOrABackupWithoutTheCaIsRefused(@TempDir Path dir) throws Exception {
        Map<String, byte[]> parts = SeatState.parts(seat(dir.resolve("old")));
        List<String> problems = SeatState.problems(dir.resolve("old"), parts);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("this machine already has a mesh"), problems.get(0));

        Map<String, byte[]> noCa = new java.util.HashMap<>(parts);
        noCa.remove("keys/tls/ca.key");
        assertEquals(List.of("the state backup holds no tls/ca.key: it cannot raise a seat"), SeatState.problems(dir.resolve("new"), noCa));
    }

    @Test
    void aSeatWithoutItsCaKeyMakesNoBackup(@TempDir Path dir) throws Exception {
        Files.delete(seat(dir).resolve("tls/ca.key"));
        IOException e = assertThrows(IOException.class, () -> SeatState.parts(dir));
        assertTrue(e.getMessage().contains("ca.key is missing"), e.getMessage());
    }
}
