package mesh.wire;

import java.util.List;

/**
 * BundlesRequest is {@code POST /v1/bundles} on an agent: the bundles ({@code NAME@sha256:HEX}) a
 * module's processes need there, the artifact store to fetch them from (the mesh's, as a declaration
 * names it), and whether the agent should fetch the ones it lacks ({@code fetch}; a take's dry run only
 * asks whether the store has them). Answered by {@link BundlesAnswer}.
 */
public record BundlesRequest(List<String> bundles, String registry, boolean fetch) {
}
