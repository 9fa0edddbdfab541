package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.InvalidInput;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.ObservedContainer;
import mesh.model.Placement;
import mesh.model.SecretRef;
import mesh.model.SpecDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SecretPlanTest: how a secret goes from a manifest through the planner into a declaration, a digest and a diff. */
class SecretPlanTest {

    static final Node N1 = new Node("n1", "10.77.0.11", "http://10.77.0.11:7701", null);
    static final Node N2 = new Node("n2", "10.77.0.12", "http://10.77.0.12:7701", null);
    static final String H1 = "1".repeat(64);
    static final String H2 = "2".repeat(64);

    static final Manifest APP = ManifestYaml.parse("app.yaml", """
            module: app
            components:
              app.api:
                image: x:1
                env: {MODE: api, DB_PASSWORD: {secret: db-password}}
              app.worker:
                image: x:1
                env: {MODE: worker}
            """);
    static final Manifest OTHER = ManifestYaml.parse("other.yaml", "module: other\ncomponents:\n  other.server:\n    image: x:1\n");

    static SecretValues values(int version, String hmac, String value) {
        return new SecretValues(Map.of("app", Map.of("db-password", new SecretRef("db-password", version, hmac, value, null))));
    }

    static MeshPlan plan(SecretValues secrets) {
        return MeshPlanner.plan(List.of(APP, OTHER), List.of(N1, N2),
                List.of(new Placement("app", "n2", "n2"), new Placement("other", "n1", "n1")), BundlePins.NONE, secrets);
    }

    @Test
    void theManifestNamesTheSecretAndKeepsItOutOfEnv() {
        Manifest.Component api = APP.components().get("app.api");
        assertEquals(Map.of("MODE", "api"), api.env());
        assertEquals(Map.of("DB_PASSWORD", "db-password"), api.secrets());
        assertFalse(DeclarationJson.write(APP).contains("value"), "a manifest holds a reference alone");
    }

    static Stream<Arguments> badReferences() {
        return Stream.of(
                Arguments.of("{secret: Not_A_Name}", "is not a secret's name"),
                Arguments.of("{secret: x, value: y}", "unknown field"),
                Arguments.of("{sekret: x}", "unknown field"),
                Arguments.of("{}", "a secret is written {secret: NAME}"));
    }

    @ParameterizedTest
    @MethodSource("badReferences")
    void aBadReferenceIsRefusedNamingTheVariable(String written, String says) {
        InvalidInput e = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("bad.yaml",
                "module: bad\ncomponents:\n  bad.server:\n    image: x:1\n    env: {P: " + written + "}\n"));
        assertTrue(e.getMessage().contains("env.P") && e.getMessage().contains(says), e.getMessage());
    }

    @Test
    void onlyTheNodeThatRunsTheComponentGetsTheValue() {
        MeshPlan plan = plan(values(3, H1, "s3cret"));
        ComponentSpec api = plan.nodes().get("n2").stream().filter(c -> c.name().equals("app.api")).findFirst().orElseThrow();
        assertEquals(new SecretRef("db-password", 3, H1, "s3cret", null), api.secrets().get("DB_PASSWORD"));
        assertTrue(plan.nodes().get("n2").stream().filter(c -> !c.name().equals("app.api")).allMatch(c -> c.secrets().isEmpty()));
        assertFalse(DeclarationJson.write(plan.nodes().get("n1")).contains("s3cret"));
        Declaration stored = new Declaration("n2", N2.address(), 0, plan.nodes().get("n2")).withoutSecretValues();
        String json = DeclarationJson.write(stored);
        assertFalse(json.contains("s3cret"), json);
        assertTrue(json.contains(H1), "what the store keeps carries the keyed hash: " + json);
    }

    @Test
    void anUnknownSecretFailsThePlanNamingNodeComponentModuleAndSecret() {
        PlanFailure e = assertThrows(PlanFailure.class, () -> plan(SecretValues.NONE));
        assertEquals(List.of("node n2: component app.api (app): env DB_PASSWORD uses secret db-password, which module app"
                + " does not have ('mesh secret set app db-password' sets it)"), e.problems());
    }

    static ComponentSpec api(SecretValues v) {
        return plan(v).nodes().get("n2").stream().filter(c -> c.name().equals("app.api")).findFirst().orElseThrow();
    }

    static ObservedContainer running(ComponentSpec c) {
        ContainerRequest r = ContainerRequest.of(c, null);
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), SpecDigest.of(r),
                SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r), 1, true);
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                // a new value (a new hash): replaced, the secret named as the reason
                Arguments.of(values(1, H1, "a"), values(2, H2, "b"), List.of("secret db-password")),
                // the same value set again: a new version, the same hash, nothing to do
                Arguments.of(values(1, H1, "a"), values(2, H1, "a"), List.of()),
                // the value never reaches the digest: only its hash does
                Arguments.of(values(1, H1, "a"), values(1, H1, "something else"), List.of()));
    }

    @ParameterizedTest
    @MethodSource("changes")
    void aNewValueReplacesExactlyTheComponentsThatUseIt(SecretValues before, SecretValues after, List<String> fields) {
        List<ComponentSpec> was = plan(before).nodes().get("n2");
        HostPlan diff = HostDiff.between(new Declaration("n2", null, 2, plan(after).nodes().get("n2")),
                was.stream().map(SecretPlanTest::running).toList());
        assertEquals(fields.isEmpty() ? 0 : 1, diff.replace().size(), diff.summary());
        diff.replace().forEach(r -> {
            assertEquals("app.api", r.spec().name());
            assertEquals(fields, r.fields());
        });
        assertEquals(fields.isEmpty() ? 2 : 1, diff.keep().size(), diff.summary());
    }

    @Test
    void theLabelCarriesTheHashNeverTheValue() {
        ContainerRequest r = ContainerRequest.of(api(values(1, H1, "s3cret")), null, "n2", 4);
        assertTrue(r.envList().contains("DB_PASSWORD=s3cret"), "the engine is given the value");
        r.labels().values().forEach(label -> assertFalse(label.contains("s3cret"), label));
        assertTrue(SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r).contains("secret db-password hmac " + H1));
    }

    @Test
    void aComponentWithoutSecretsKeepsItsDigest() {
        ComponentSpec worker = plan(values(1, H1, "a")).nodes().get("n2").stream()
                .filter(c -> c.name().equals("app.worker")).findFirst().orElseThrow();
        assertFalse(SpecDigest.canonical(SpecDigest.CURRENT_VERSION, ContainerRequest.of(worker, null)).contains("secrets"));
        assertFalse(DeclarationJson.write(worker).contains("secrets"), "and its JSON reads as before");
    }

    @Test
    void removingASecretInUseNamesEachUse() {
        assertEquals(List.of("component app.api (env DB_PASSWORD)"), SecretRules.uses(APP, "db-password"));
        assertEquals(List.of(), SecretRules.uses(APP, "other"));
    }

    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of("app", "db-password", "v", true, List.of()),
                Arguments.of("app", "DB", "v", true, List.of("'DB' is not a secret's name: lower-case letters, digits and '-', at most 63")),
                Arguments.of("nope", "x", "v", false, List.of("module nope is not in the catalogue ('mesh catalogue add' it first)")),
                Arguments.of("app", "x", "", true, List.of("the value is empty: give it on stdin or with --from-file")),
                Arguments.of("app", "x", "a\0b", true, List.of("the value holds a NUL character, which no environment variable can")),
                Arguments.of("app", "x", "v".repeat(SecretRules.MAX_VALUE_BYTES + 1), true, List.of("the value is larger than 64 KiB")));
    }

    @ParameterizedTest
    @MethodSource("values")
    void whatASetRefuses(String module, String name, String value, boolean known, List<String> problems) {
        assertEquals(problems, SecretRules.setProblems(module, name, value, known));
    }

    @Test
    void theHistoryComparisonShowsASecretInWordsNeverItsValue() {
        Declaration a = new Declaration("n2", null, 1, plan(values(1, H1, "old-value")).nodes().get("n2"));
        Declaration b = new Declaration("n2", null, 2, plan(values(2, H2, "new-value")).nodes().get("n2"));
        DeclarationChanges changes = DeclarationChanges.between(a, b);
        assertEquals(Map.of("app.api", List.of("secrets")), changes.changed());
        DeclarationChanges.FieldChange f = changes.values().get("app.api").get(0);
        assertEquals("(secret db-password, version 1)", f.before().get("DB_PASSWORD").asText());
        assertEquals("(secret db-password, version 2)", f.after().get("DB_PASSWORD").asText());
        String json = DeclarationJson.write(changes);
        assertFalse(json.contains("old-value") || json.contains("new-value") || json.contains(H1), json);
    }

    @Test
    void aReferenceSaysItselfWithoutItsValue() {
        SecretRef r = new SecretRef("db-password", 2, H1, "s3cret", null);
        assertEquals("(secret db-password, version 2)", r.words());
        assertNull(r.withoutValue().value());
        assertFalse(DeclarationJson.write(r.withoutValue()).contains("s3cret"));
    }
}
