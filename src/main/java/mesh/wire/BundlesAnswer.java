package mesh.wire;

import java.util.List;

/**
 * BundlesAnswer is what an agent says of a {@link BundlesRequest}: the bundles it lacks and cannot get,
 * each with why (the fetch's failure, or that the artifact store does not have it). Empty when every
 * one is here or was fetched.
 */
public record BundlesAnswer(List<Missing> missing) {

    /** Missing is one bundle the node lacks and why. */
    public record Missing(String bundle, String why) {
    }
}
