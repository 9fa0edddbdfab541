package mesh.wire;

import java.util.List;

/**
 * RotateReport names every party of a rotation ({@code mesh ca rotate-certs}): each node's agent and
 * the controller, reissued (with its new certificate's serial and expiry) or left with its old one
 * and why. {@code complete} is false when a party asked for was left (the verb then exits non-zero).
 */
public record RotateReport(List<Party> parties, boolean complete) {

    /**
     * One party: {@code outcome} is {@code reissued} or {@code left}; {@code asked} false for a party left
     * because the operator did not ask for it ({@code --node}), which is no failure (null, from a controller
     * older than this field: asked).
     */
    public record Party(String party, String outcome, String serial, String notAfter, String why, Boolean asked) {

        public boolean wasAsked() {
            return asked == null || asked;
        }

        public boolean reissued() {
            return "reissued".equals(outcome);
        }
    }
}
