package mesh.cli;

import java.util.ArrayList;
import java.util.List;
import mesh.wire.PlanView;

/** PlanLines is how a plan reads in text, the same in {@code push} and {@code host apply}: one line per change. */
final class PlanLines {

    private PlanLines() {
    }

    static List<String> of(PlanView plan) {
        List<String> lines = new ArrayList<>();
        plan.create().forEach(c -> lines.add("  create  " + c));
        plan.replace().forEach(r -> lines.add("  replace " + r.name() + " (" + r.module() + "): "
                + String.join(", ", r.fields()) + " changed"));
        plan.start().forEach(c -> lines.add("  start   " + c));
        plan.remove().forEach(c -> lines.add("  remove  " + c));
        return lines;
    }
}
