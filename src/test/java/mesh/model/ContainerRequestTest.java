package mesh.model;

import static mesh.model.Specs.component;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerRequestTest {

    static ComponentSpec gitea() {
        return component("gitea.server").module("gitea").image("gitea/gitea:1.22").args("serve", "--quiet")
                .env("B", "2").env("A", "1").volume("data", "/data").volume("conf", "/etc/gitea")
                .port(3000).port(22).host("mesh-store.internal", "10.77.0.11").host("keycloak.novox.be", "10.77.0.12")
                .network("gitea").stopTimeout(30).health(new HealthCheck("/api/healthz", 3000, null, 120))
                .after("gitea.cache").build();
    }

    @Test
    void itCarriesEveryFieldTheEngineIsGivenAndNothingElse() {
        ContainerRequest r = ContainerRequest.of(gitea(), "10.77.0.11", "novox", 42);
        assertEquals("gitea.server", r.name());
        assertEquals("gitea/gitea:1.22", r.image());
        assertEquals(List.of("serve", "--quiet"), r.args());
        assertEquals(List.of("A=1", "B=2"), r.envList());
        assertEquals(List.of("keycloak.novox.be:10.77.0.12", "mesh-store.internal:10.77.0.11"), r.extraHosts());
        assertEquals(Map.of("gitea_conf", "/etc/gitea", "gitea_data", "/data"), r.mounts());
        assertEquals(List.of("gitea_conf", "gitea_data"), List.copyOf(r.mounts().keySet()));
        assertEquals(List.of(22, 3000), r.ports());
        assertEquals("10.77.0.11", r.publishAddress());
        assertEquals("gitea", r.network());
        assertEquals(30, r.stopTimeoutSeconds());
    }

    @Test
    void itsLabelsOwnTheContainerAndCarryTheDigestOfItsOwnFields() {
        ContainerRequest r = ContainerRequest.of(gitea(), "10.77.0.11", "novox", 42);
        ContainerRequest bare = ContainerRequest.of(gitea(), "10.77.0.11");
        assertEquals(Map.of(), bare.labels());
        assertEquals(Map.of(
                Labels.NODE, "novox",
                Labels.MODULE, "gitea",
                Labels.COMPONENT, "gitea.server",
                Labels.GENERATION, "42",
                Labels.DIGEST, SpecDigest.of(bare),
                Labels.SPEC, SpecDigest.canonical("v2", bare)), r.labels());
        assertEquals(SpecDigest.of(bare), SpecDigest.of(r), "the labels are not part of the digest");
    }

    @Test
    void aComponentThatPublishesNothingHasNoPublishAddress() {
        ContainerRequest r = ContainerRequest.of(component("gitea.cache").module("gitea").build(), "10.77.0.11");
        assertNull(r.publishAddress());
        assertEquals(List.of(), r.ports());
    }

    @Test
    void aDeclarationWithoutAnAddressPublishesOnAllAddresses() {
        assertNull(ContainerRequest.of(gitea(), null).publishAddress());
    }

    @Test
    void theDefaultStopTimeoutIsDockersOwn() {
        assertEquals(ComponentSpec.DEFAULT_STOP_TIMEOUT_SECONDS,
                ContainerRequest.of(component("x").build(), null).stopTimeoutSeconds());
    }
}
