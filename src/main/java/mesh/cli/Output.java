package mesh.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import mesh.model.DeclarationJson;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Output is where every verb prints: to picocli's streams (so tests capture them), as one JSON
 * document for {@code -o json} and as aligned tables or lines for people.
 */
public class Output {

    public void json(CommandSpec spec, Object value) {
        PrintWriter out = spec.commandLine().getOut();
        out.println(DeclarationJson.writePretty(value));
        out.flush();
    }

    public void line(CommandSpec spec, String text) {
        PrintWriter out = spec.commandLine().getOut();
        out.println(text);
        out.flush();
    }

    public void error(CommandSpec spec, String text) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(text);
        err.flush();
    }

    /** Prints rows under a header, each column as wide as its widest cell. */
    public void table(CommandSpec spec, List<String> header, List<List<String>> rows) {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        int[] widths = new int[header.size()];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i) == null ? 1 : row.get(i).length());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        for (List<String> row : all) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i) == null ? "-" : row.get(i);
                b.append(i == row.size() - 1 ? cell : String.format("%-" + (widths[i] + 2) + "s", cell));
            }
            out.println(b.toString().stripTrailing());
        }
        out.flush();
    }
}
