package mesh.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * StartingServerIT: a process started as `mesh host serve` opens its port during boot, before the
 * agent has its settings. A push that arrives in that window must read "starting, try again" (503,
 * which the controller waits out), never "this is not a host agent" (404, which reads as a wrong
 * address). Its own profile gives it a fresh app in which no agent or controller was ever started.
 */
@QuarkusTest
@TestProfile(StartingServerIT.StartedAsHost.class)
class StartingServerIT {

    public static class StartedAsHost implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(ServerRole.PROPERTY, ServerRole.HOST);
        }
    }

    @Test
    void aHostAgentThatIsStillStartingSaysSo() {
        given().auth().oauth2("any").when().get("/v1/status")
                .then().statusCode(503).header("Retry-After", "1").body("error", containsString("the host agent is starting"));
        given().auth().oauth2("any").body("{}").contentType("application/json").when().put("/v1/declaration")
                .then().statusCode(503).body("error", containsString("try again in a moment"));
    }

    @Test
    void itIsStillNoControllerWhileItStarts() {
        given().auth().oauth2("any").when().get("/v1/mesh/nodes")
                .then().statusCode(404).body("error", containsString("this is a host agent, not a controller"));
    }
}
