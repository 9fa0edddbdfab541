package mesh.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * StartingControllerIT: as {@link StartingServerIT} for `mesh controller serve`. A verb that
 * arrives while the controller boots (the CLI right after `systemctl start`) reads 503 with
 * Retry-After, which the CLI waits out, not "this process is not a controller".
 */
@QuarkusTest
@TestProfile(StartingControllerIT.StartedAsController.class)
class StartingControllerIT {

    public static class StartedAsController implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(ServerRole.PROPERTY, ServerRole.CONTROLLER);
        }
    }

    @Test
    void aControllerThatIsStillStartingSaysSo() {
        given().auth().oauth2("any").when().get("/v1/mesh/nodes")
                .then().statusCode(503).header("Retry-After", "1").body("error", containsString("the controller is starting"));
    }

    @Test
    void itIsStillNoHostAgentWhileItStarts() {
        given().auth().oauth2("any").when().get("/v1/status")
                .then().statusCode(404).body("error", containsString("this process is not a host agent"));
    }
}
