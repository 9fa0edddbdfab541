package mesh.wire;

import java.util.List;

/** ForgottenCopies is what {@code mesh take --forget-old MODULE} removed: each old copy by node and epoch. */
public record ForgottenCopies(String module, List<Copy> removed) {

    /** Copy is one old copy: the node, the take's epoch that left it, its volumes. */
    public record Copy(String node, long epoch, List<String> volumes) {
    }
}
