package mesh.host.take;

import java.util.ArrayList;
import java.util.List;
import mesh.docker.Engine;
import mesh.docker.EngineFailure;
import mesh.wire.ImagesAnswer;
import mesh.wire.ImagesRequest;

/**
 * ImageCheck answers {@code POST /v1/images}: which of the images a module needs the engine lacks. A take's
 * preflight asks the target before it fences the source, so a module whose image the target cannot get is
 * refused with the image's name while it still runs, rather than found out at the start step.
 */
public final class ImageCheck {

    private ImageCheck() {
    }

    /** The images of {@code request} the engine lacks, after pulling them when {@code fetch} says so. */
    public static ImagesAnswer check(Engine engine, ImagesRequest request) {
        List<ImagesAnswer.Missing> missing = new ArrayList<>();
        for (String image : request.images() == null ? List.<String>of() : request.images().stream().distinct().toList()) {
            if (image == null || image.isBlank() || engine.hasImage(image)) {
                continue;
            }
            if (!request.fetch()) {
                missing.add(new ImagesAnswer.Missing(image, "not on this node's engine; a take would pull it"));
                continue;
            }
            try {
                engine.fetchImage(image);
            } catch (EngineFailure e) {
                missing.add(new ImagesAnswer.Missing(image, e.getMessage()));
            }
        }
        return new ImagesAnswer(missing);
    }
}
