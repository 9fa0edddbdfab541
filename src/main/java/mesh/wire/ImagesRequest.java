package mesh.wire;

import java.util.List;

/**
 * ImagesRequest is {@code POST /v1/images} on an agent: the images a module needs there, and whether the
 * agent should pull the ones it lacks ({@code fetch}; a take's dry run only asks). Answered by
 * {@link ImagesAnswer}.
 */
public record ImagesRequest(List<String> images, boolean fetch) {
}
