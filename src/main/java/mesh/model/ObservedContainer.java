package mesh.model;

import java.util.List;

/**
 * ObservedContainer is what the engine reports of one container the mesh owns on this node (or the
 * supervisor of one process it runs): only
 * containers that carry the mesh's node label are ever observed, so nothing else is ever touched.
 *
 * @param digest      the spec digest label it was created with
 * @param spec        the canonical spec label it was created with (to say which fields changed)
 * @param running     whether its process runs now
 * @param publishedOn the addresses its ports are bound to, as the engine reports them (only while it
 *                    runs); how a container labelled before the digest covered the address is checked
 * @param process     whether it is a supervised process (its id {@code process:PID}) rather than a container
 */
public record ObservedContainer(String id, String name, String module, String digest, String spec,
                                long generation, boolean running, List<String> publishedOn, boolean process) {

    /** A container, seen with its port bindings. */
    public ObservedContainer(String id, String name, String module, String digest, String spec, long generation,
                             boolean running, List<String> publishedOn) {
        this(id, name, module, digest, spec, generation, running, publishedOn, false);
    }

    public ObservedContainer {
        publishedOn = publishedOn == null ? List.of() : List.copyOf(publishedOn);
    }

    /** A container seen without its port bindings. */
    public ObservedContainer(String id, String name, String module, String digest, String spec, long generation,
                             boolean running) {
        this(id, name, module, digest, spec, generation, running, List.of());
    }
}
