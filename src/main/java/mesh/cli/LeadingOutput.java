package mesh.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * LeadingOutput lets {@code -o json} come before the verb ({@code mesh -o json status}) as well as
 * after it: it moves a leading {@code -o FORMAT} / {@code --output FORMAT} to the end of the verb's
 * own arguments, where each verb's {@link OutputOption} reads it. Written by hand because picocli
 * cannot declare one option both on the top command and, inherited, on verbs that declare it
 * themselves (it refuses the duplicate name); moving two words is smaller than restructuring every verb.
 */
final class LeadingOutput {

    private LeadingOutput() {
    }

    static String[] moved(String... args) {
        List<String> lead = new ArrayList<>();
        int i = 0;
        while (i < args.length) {
            String a = args[i];
            if ((a.equals("-o") || a.equals("--output")) && i + 1 < args.length) {
                lead.add(a);
                lead.add(args[i + 1]);
                i += 2;
            } else if (a.startsWith("--output=") || a.startsWith("-o") && a.length() > 2 && !a.startsWith("--")) {
                lead.add(a);
                i++;
            } else {
                break;
            }
        }
        if (lead.isEmpty() || i == args.length) {
            return args;   // nothing to move, or no verb after it: picocli says what is wrong
        }
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(i, args.length));
        int end = rest.indexOf("--");
        rest.addAll(end < 0 ? rest.size() : end, lead);
        return rest.toArray(String[]::new);
    }
}
