package mesh.host;

import java.util.Map;
import java.util.Set;
import mesh.model.Declaration;
import mesh.plan.Cutover;

/** CutoverEdge is how a cutover points this node's edge at its new copy, and back when the cutover stops. */
interface CutoverEdge {

    /** Loads the routes with these pins ({@link Cutover#key} to pin); null once the edge serves them, else why not. */
    String pin(Declaration d, Map<String, Cutover.Pin> pins);

    /** Drops the pins and loads the routes back where they were. */
    void unpin(Declaration d, Set<String> keys);
}
