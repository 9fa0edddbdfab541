package mesh.plan;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;

/**
 * LostCopyGuard keeps a declaration that runs a module away from a node that holds a lost copy of it not fenced yet
 * (docs/backup.md, "A moved copy never starts again"): the module was restored elsewhere while that node was down, and
 * the node's agent, once it accepts any declaration, ends its start hold and starts what the declaration runs. The
 * controller's lost-copy watch fences the copy first and then sends the node its declaration; any other send of a
 * declaration that still runs the module there (an edge told first at a take's switch, which resends the node's last
 * acknowledged components) is refused until then. Pure: the caller reads the lost copies and sends.
 */
public final class LostCopyGuard {

    private LostCopyGuard() {
    }

    /** Why {@code d} may not be sent to its node, which holds unfenced lost copies of {@code lostThere}; null: it may. */
    public static String refusal(Declaration d, Set<String> lostThere) {
        SortedSet<String> runs = new TreeSet<>();
        for (ComponentSpec c : d.components()) {
            if (lostThere.contains(c.module())) {
                runs.add(c.module());
            }
        }
        return runs.isEmpty() ? null : "node " + d.node() + " holds a copy of " + String.join(", ", runs) + " restored"
                + " elsewhere while it was down, not fenced yet: a declaration that runs " + String.join(", ", runs)
                + " there is not sent before the controller fences it (the moment the node answers)";
    }
}
