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
 * @param hostPorts   container port to the host port it is published on, as the engine reports it (only while
 *                    it runs); the same number but for a component a cutover moved ({@code mesh.plan.Cutover})
 */
public record ObservedContainer(String id, String name, String module, String digest, String spec,
                                long generation, boolean running, List<String> publishedOn, boolean process,
                                java.util.Map<Integer, Integer> hostPorts) {

    /** A container or process seen without the host ports of its bindings. */
    public ObservedContainer(String id, String name, String module, String digest, String spec, long generation,
                             boolean running, List<String> publishedOn, boolean process) {
        this(id, name, module, digest, spec, generation, running, publishedOn, process, java.util.Map.of());
    }

    /** A container, seen with its port bindings. */
    public ObservedContainer(String id, String name, String module, String digest, String spec, long generation,
                             boolean running, List<String> publishedOn) {
        this(id, name, module, digest, spec, generation, running, publishedOn, false);
    }

    public ObservedContainer {
        publishedOn = publishedOn == null ? List.of() : List.copyOf(publishedOn);
        hostPorts = hostPorts == null ? java.util.Map.of() : java.util.Map.copyOf(hostPorts);
    }

    /** A container seen without its port bindings. */
    public ObservedContainer(String id, String name, String module, String digest, String spec, long generation,
                             boolean running) {
        this(id, name, module, digest, spec, generation, running, List.of());
    }
}
