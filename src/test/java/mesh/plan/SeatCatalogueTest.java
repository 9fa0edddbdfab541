package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.Node;
import org.junit.jupiter.api.Test;

class SeatCatalogueTest {

    static Map<String, String> templates(List<String> modules) throws IOException {
        Map<String, String> t = new LinkedHashMap<>();
        for (String m : modules) {
            try (InputStream in = SeatCatalogueTest.class.getResourceAsStream("/install/" + m + ".yaml")) {
                t.put(m, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return t;
    }

    static final Map<String, String> VALUES = Map.of("STORE_IMAGE", "mesh-test/postgres:15", "REGISTRY_IMAGE",
            "mesh-test/registry:2", "STORE_PASSWORD", "pw", "STORE_USER", "mesh", "STORE_URL",
            "jdbc:postgresql://10.77.0.11:5432/mesh", "CONTROLLER_TOKEN_FILE", "/var/lib/mesh/install/controller-token", "ADDRESS", "10.77.0.11");

    @Test
    void theStoreAndRegistryArePlannedForTheSeatWithTheirPortsAndVolumes() throws IOException {
        Node seat = new Node("n1", "10.77.0.11", "http://10.77.0.11:7701", null);
        List<String> modules = List.of(SeatCatalogue.STORE, SeatCatalogue.REGISTRY);
        String hmac = "a".repeat(64);
        SecretValues secrets = new SecretValues(Map.of(SeatCatalogue.STORE, Map.of("store-password",
                new mesh.model.SecretRef("store-password", 1, hmac, "pw", null))));
        Declaration d = SeatCatalogue.declaration(seat, SeatCatalogue.fill(templates(modules), VALUES), modules, 7, secrets);
        assertEquals(7, d.generation());
        assertEquals(List.of("mesh-registry.registry", "mesh-store.postgres"),
                d.components().stream().map(ComponentSpec::name).sorted().toList());
        ComponentSpec store = d.component("mesh-store.postgres").orElseThrow();
        assertEquals("mesh-test/postgres:15", store.image());
        // the store's password is a secret of mesh-store: a reference in the manifest, its value in the declaration alone
        assertEquals(null, store.env().get("POSTGRES_PASSWORD"));
        assertEquals("pw", store.secrets().get("POSTGRES_PASSWORD").value());
        assertEquals(hmac, store.secrets().get("POSTGRES_PASSWORD").hmac());
        assertEquals(null, d.withoutSecretValues().component("mesh-store.postgres").orElseThrow()
                .secrets().get("POSTGRES_PASSWORD").value());
        assertEquals(List.of(5432), store.ports());
        assertEquals(Map.of("data", "/var/lib/postgresql/data"), store.volumes());
        assertEquals(List.of(5000), d.component("mesh-registry.registry").orElseThrow().ports());
    }

    @Test
    void aMissingValueIsNamed() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SeatCatalogue.fill(templates(List.of(SeatCatalogue.CONTROLLER)), VALUES));
        assertEquals("the built-in manifest mesh-controller needs a value for CONTROLLER_BUNDLE", e.getMessage());
    }
}
