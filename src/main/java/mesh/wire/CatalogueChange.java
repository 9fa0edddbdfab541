package mesh.wire;

import java.util.List;

/**
 * CatalogueChange is the answer to {@code catalogue add}: which modules it added, which it updated,
 * and which it left as they were (the stored manifest was identical).
 */
public record CatalogueChange(List<String> added, List<String> updated, List<String> unchanged) {
}
