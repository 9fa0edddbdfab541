package mesh.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ApplyReport is what one apply did: one line per change, in the host log's form
 * ({@code updated gitea.server (gitea): replaced; hosts, image changed}), and the components that
 * failed, each with its reason, by name. A failed component does not stop the others.
 */
public final class ApplyReport {

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, String> failures = Collections.synchronizedMap(new TreeMap<>());

    void changed(String line) {
        lines.add(line);
    }

    void failed(String component, String reason) {
        failures.put(component, reason);
    }

    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    public Map<String, String> failures() {
        synchronized (failures) {
            return Collections.unmodifiableMap(new TreeMap<>(failures));
        }
    }

    public boolean ok() {
        return failures.isEmpty();
    }
}
