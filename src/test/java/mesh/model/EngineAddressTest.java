package mesh.model;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** EngineAddressTest: the forms of a Docker engine's address mesh takes, and the ones it names as wrong. */
class EngineAddressTest {

    @ParameterizedTest
    @ValueSource(strings = {"unix:///var/run/docker.sock", "unix:///run/netns-docker/n4.sock", "tcp://10.77.0.4:2375",
        "tcp://localhost:2376"})
    void goodAddresses(String engine) {
        assertNull(EngineAddress.problem(engine));
    }

    @ParameterizedTest
    @ValueSource(strings = {"docker.sock", "/var/run/docker.sock", "unix://docker.sock", "unix:/", "tcp://10.77.0.4",
        "tcp://10.77.0.4:99999", "http://10.77.0.4:2375", "tcp//10.77.0.4:2375", "npipe:////./pipe/docker", " ", "unix:///a b"})
    void badAddressesAreNamed(String engine) {
        String problem = EngineAddress.problem(engine);
        assertNotNull(problem, engine);
        assertTrue(engine.isBlank() ? problem.contains(EngineAddress.FORMS) : problem.contains(engine), problem);
    }
}
