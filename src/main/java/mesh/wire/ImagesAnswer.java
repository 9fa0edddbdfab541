package mesh.wire;

import java.util.List;

/**
 * ImagesAnswer is what an agent says of an {@link ImagesRequest}: the images it still lacks, each with why
 * (not on the engine, or the pull's failure). Empty when the engine holds every one.
 */
public record ImagesAnswer(List<Missing> missing) {

    /** Missing is one image the engine lacks and why. */
    public record Missing(String image, String why) {
    }
}
