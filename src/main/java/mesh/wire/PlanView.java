package mesh.wire;

import java.util.List;

/**
 * PlanView is a host plan as the API and {@code -o json} show it: names and reasons, not specs.
 * The agent answers a preview with it and the controller passes it on in its push report; the host makes it from
 * its plan ({@code mesh.host.HostPlanView}).
 */
public record PlanView(String summary, List<String> create, List<Replaced> replace, List<String> start,
                       List<String> remove, int unchanged) {

    /**
     * Replaced names a component and the fields whose change forces its replacement; {@code cutover} true when it is
     * replaced start-first (a cutover through the edge), absent from JSON otherwise: an agent or CLI from before cutovers
     * writes and reads none, and the strict reader ({@code FAIL_ON_NULL_FOR_PRIMITIVES}) would refuse a missing
     * primitive, so it is a {@code Boolean} that is null unless true ({@link #cutsOver} reads it).
     */
    public record Replaced(String name, String module, List<String> fields,
                           @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                           Boolean cutover) {

        public Replaced {
            cutover = Boolean.TRUE.equals(cutover) ? Boolean.TRUE : null;
        }

        /** A component replaced stop-first. */
        public Replaced(String name, String module, List<String> fields) {
            this(name, module, fields, null);
        }

        /** Whether it is replaced start-first (a cutover), whoever wrote it. */
        public boolean cutsOver() {
            return Boolean.TRUE.equals(cutover);
        }
    }
}
