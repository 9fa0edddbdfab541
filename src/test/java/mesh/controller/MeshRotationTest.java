package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import mesh.model.Conflict;
import org.junit.jupiter.api.Test;

/**
 * MeshRotationTest: a rotation that cannot be done is refused before anything is asked or written,
 * saying why: a controller serving plain HTTP has no certificates, one without the CA's key cannot
 * issue any. (The store is not reached: these checks come first; RotateIT covers the rest.)
 */
class MeshRotationTest {

    @Test
    void aPlainHttpControllerHasNothingToRotate() {
        Conflict e = assertThrows(Conflict.class, () -> new MeshRotation().rotate(List.of()));
        assertEquals("this controller serves plain HTTP (MESH_PLAIN_HTTP=yes): there are no certificates to rotate", e.getMessage());
    }

    @Test
    void aControllerWithoutTheCaKeyCannotIssue() {
        String had = System.getProperty("mesh.tls.cert");
        System.setProperty("mesh.tls.cert", "/nonexistent/controller.crt");
        try {
            Conflict e = assertThrows(Conflict.class, () -> new MeshRotation().rotate(List.of("ace")));
            assertEquals("this controller cannot issue certificates: it was started without the mesh CA's key"
                    + " (MESH_CA_KEY; the seat's controller has it, docs/trust.md)", e.getMessage());
        } finally {
            if (had == null) {
                System.clearProperty("mesh.tls.cert");
            } else {
                System.setProperty("mesh.tls.cert", had);
            }
        }
    }
}
