package mesh.host;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Specs;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HostApiIT drives the agent's API over real HTTP against the real engine: what it accepts, and
 * that every refusal names its problem and changes nothing (no record, no container).
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostApiIT {

    static final String TOKEN = "test-token-" + System.nanoTime();

    @Inject
    HostAgent agent;

    EngineFixture engine;
    Path stateDir;

    @BeforeAll
    void start() throws IOException {
        engine = new EngineFixture();
        stateDir = Files.createTempDirectory("mesh-host-api");
        agent.start(new HostSettings(engine.node, EngineFixture.ENGINE, TOKEN, stateDir, Duration.ofSeconds(1), 4));
    }

    @AfterAll
    void stop() {
        // the agent's loop would bring the container back after the cleanup: stop it first
        agent.stop();
        engine.close();
    }

    String declaration(long generation) {
        return DeclarationJson.write(new Declaration(engine.node, null, generation, List.of(
                Specs.component(engine.name("web")).module(engine.name("app")).network(engine.name("app"))
                        .args("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done").stopTimeout(2).build())));
    }

    @Test
    @Order(1)
    void aDeclarationIsRecordedAndAnsweredWithWhatItChanges() throws InterruptedException {
        given().auth().oauth2(TOKEN).contentType(ContentType.JSON).body(declaration(5))
                .when().put("/v1/declaration")
                .then().statusCode(201)
                .body("generation", equalTo(5))
                .body("applied", equalTo(false))
                .body("plan.create", hasItem(engine.name("web")))
                .body("plan.summary", equalTo("1 to create, 0 unchanged"));
        assertEquals(List.of(5L), agent.records().generations());
        awaitConverged(5);
        given().auth().oauth2(TOKEN).when().get("/v1/status").then().statusCode(200)
                .body("appliedGeneration", equalTo(5))
                .body("components[0].state", equalTo("running"));
        given().auth().oauth2(TOKEN).when().get("/v1/declarations").then().statusCode(200)
                .body("generation", equalTo(List.of(5)));
        given().auth().oauth2(TOKEN).when().get("/v1/declarations/5").then().statusCode(200)
                .body("declaration.components[0].name", equalTo(engine.name("web")))
                .body("receivedAt", containsString("T"));
    }

    void awaitConverged(long generation) throws InterruptedException {
        PackagedMesh.await("generation " + generation + " applied", Duration.ofSeconds(30), () -> {
            var status = given().auth().oauth2(TOKEN).when().get("/v1/status").then().extract().jsonPath();
            // running means healthy, so a container up for an instant is "starting" (docs/health.md): wait it out too
            return status.getLong("appliedGeneration") == generation && status.getBoolean("converged")
                    && !status.getList("components.state").contains("starting");
        });
    }

    Stream<Arguments> refusals() {
        String bad = "{\"node\":\"" + engine.node + "\",\"generation\":9,\"components\":[%s]}";
        return Stream.of(
                Arguments.of("no token", null, declaration(9), 401, "missing bearer token"),
                Arguments.of("wrong token", "nope", declaration(9), 401, "wrong bearer token"),
                Arguments.of("stale generation", TOKEN, declaration(5), 409, "generation 5 is not newer than the last accepted, 5"),
                Arguments.of("older generation", TOKEN, declaration(3), 409, "not newer"),
                Arguments.of("malformed JSON", TOKEN, "{\"node\": ", 400, "malformed JSON"),
                Arguments.of("empty body", TOKEN, "", 400, "the declaration is empty"),
                Arguments.of("unknown field", TOKEN, bad.formatted("{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"colour\":\"red\"}"),
                        400, "unknown field 'colour' in components[0]"),
                Arguments.of("wrong type", TOKEN, bad.formatted("{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"ports\":{\"a\":1}}"),
                        400, "field 'components[0].ports'"),
                Arguments.of("no image", TOKEN, bad.formatted("{\"module\":\"m\",\"name\":\"a\"}"), 400,
                        "component a: image: is required"),
                Arguments.of("another node", TOKEN, declaration(9).replace(engine.node, "elsewhere"), 400,
                        "the declaration is for node 'elsewhere'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    @Order(2)
    void everyRefusalNamesTheProblemAndChangesNothing(String what, String token, String body, int status, String message)
            throws IOException {
        List<String> recordsBefore = files(stateDir);
        var containersBefore = engine.containers().stream().map(c -> c.getId() + c.getState()).toList();
        var request = given().contentType(ContentType.JSON).body(body);
        if (token != null) {
            request = request.auth().oauth2(token);
        }
        request.when().put("/v1/declaration")
                .then().statusCode(status)
                .contentType(ContentType.JSON)
                .body("error", containsString(message));
        assertEquals(recordsBefore, files(stateDir), "records after a refusal");
        assertEquals(containersBefore, engine.containers().stream().map(c -> c.getId() + c.getState()).toList());
        assertEquals(5, agent.desired().orElseThrow().generation());
    }

    @Test
    @Order(3)
    void readsNeedTheTokenToo() {
        given().when().get("/v1/status").then().statusCode(401);
        given().auth().oauth2(TOKEN).when().get("/v1/declarations/77").then().statusCode(404)
                .body("error", containsString("no declaration of generation 77"));
        given().auth().oauth2(TOKEN).when().get("/v1/declarations/x").then().statusCode(400);
    }

    /** A declaration the engine already matches is applied by the time the 201 leaves: no poll needed. */
    @Test
    @Order(4)
    void aDeclarationTheEngineAlreadyMatchesIsAppliedInTheAnswer() {
        var before = engine.containers().stream().map(c -> c.getId() + c.getState()).toList();
        given().auth().oauth2(TOKEN).contentType(ContentType.JSON).body(declaration(6))
                .when().put("/v1/declaration")
                .then().statusCode(201)
                .body("applied", equalTo(true))
                .body("plan.create", equalTo(List.of()))
                .body("plan.replace", equalTo(List.of()))
                .body("plan.unchanged", equalTo(1));
        given().auth().oauth2(TOKEN).when().get("/v1/status").then().statusCode(200)
                .body("appliedGeneration", equalTo(6)).body("converged", equalTo(true));
        assertEquals(before, engine.containers().stream().map(c -> c.getId() + c.getState()).toList());
    }

    /** A client that pushed asks once: the status waits for the generation's pass, and says it applied (StatusWait). */
    @Test
    @Order(5)
    void aStatusWaitAnswersOnceTheGenerationIsApplied() {
        String changed = declaration(7).replace("sleep 1;", "sleep 2;");   // new args: a replace
        given().auth().oauth2(TOKEN).contentType(ContentType.JSON).body(changed)
                .when().put("/v1/declaration")
                .then().statusCode(201)
                .body("applied", equalTo(false))
                .body("plan.replace[0].name", equalTo(engine.name("web")));
        long began = System.nanoTime();
        given().auth().oauth2(TOKEN).when().get("/v1/status?generation=7&wait=30s").then().statusCode(200)
                .body("appliedGeneration", equalTo(7))
                .body("converged", equalTo(true));
        long millis = (System.nanoTime() - began) / 1_000_000;
        org.junit.jupiter.api.Assertions.assertTrue(millis < 20_000, "answered when the pass ended, not at the wait's end: " + millis);
        began = System.nanoTime();
        given().auth().oauth2(TOKEN).when().get("/v1/status?generation=99&wait=30s").then().statusCode(200)
                .body("generation", equalTo(7));
        org.junit.jupiter.api.Assertions.assertTrue(System.nanoTime() - began < 5_000_000_000L,
                "generation 99 was never pushed: answered at once");
        given().auth().oauth2(TOKEN).when().get("/v1/status?wait=30s").then().statusCode(400)
                .body("error", containsString("wait needs generation"));
        given().auth().oauth2(TOKEN).when().get("/v1/status?generation=7&wait=2m").then().statusCode(400)
                .body("error", containsString("wait must be from 0s to 60s"));
    }

    static List<String> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.map(p -> dir.relativize(p) + ":" + p.toFile().length()).sorted().toList();
        }
    }
}
