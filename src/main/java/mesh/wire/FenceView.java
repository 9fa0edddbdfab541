package mesh.wire;

import java.util.List;

/**
 * FenceView is a fence a host agent holds (docs/take.md): the module it keeps stopped, the take epoch it was
 * set at and since when. {@code stopped} lists the components the fence call stopped (null in a listing).
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record FenceView(String module, long epoch, String since, List<String> stopped) {
}
