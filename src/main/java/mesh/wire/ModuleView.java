package mesh.wire;

import java.util.List;

/** ModuleView is a module as {@code catalogue list} ({@code GET /v1/mesh/catalogue}) shows it. */
public record ModuleView(String module, List<String> components, List<String> routes, String assigned, String taken) {
}
