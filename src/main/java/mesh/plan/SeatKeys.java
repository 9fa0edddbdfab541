package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SeatKeys names the seat's keys a standby must hold to become the seat (docs/seat.md; docs/trust.md, "the seat's
 * disk: everything"), as paths under the state folder, the same on both machines: the mesh CA's key, the secrets key,
 * the store's password, the admin token, and the recovery key when one is set. They travel from the seat's controller to
 * the standby's agent over the mesh's mutual TLS and are written there 0600, never into the store. An agent writes no
 * other path: the list is the whole of what {@code PUT /v1/seat/keys} may touch.
 */
public final class SeatKeys {

    /** The files, relative to the state folder; the first four are needed, the recovery key only when it is set. */
    public static final List<String> FILES = List.of("tls/ca.key", "install/secrets.key", "install/store-password",
            "install/controller-token", "install/recovery.key");
    public static final List<String> NEEDED = FILES.subList(0, 4);

    /** Files larger than this are not keys: refused before anything is written. */
    public static final int MAX_BYTES = 64 * 1024;

    private SeatKeys() {
    }

    /** What is wrong with a set of keys sent to a standby (names and sizes in bytes); empty when it may be written. */
    public static List<String> problems(Map<String, Integer> sizes) {
        List<String> problems = new ArrayList<>();
        sizes.forEach((name, size) -> {
            if (!FILES.contains(name)) {
                problems.add(name + " is not one of the seat's keys (" + String.join(", ", FILES) + ")");
            } else if (size == null || size <= 0 || size > MAX_BYTES) {
                problems.add(name + " is empty or larger than " + MAX_BYTES + " bytes");
            }
        });
        NEEDED.stream().filter(n -> !sizes.containsKey(n)).forEach(n -> problems.add(n + " is missing"));
        return problems;
    }
}
