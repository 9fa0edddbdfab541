package mesh.cli;

import picocli.CommandLine.Option;

/** OutputOption is the {@code -o} every reporting verb takes; inherited, so {@code mesh node add … -o json} works. */
public class OutputOption {
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", scope = picocli.CommandLine.ScopeType.INHERIT, description = "text (default) or json: one JSON document on stdout")
    OutputFormat format = OutputFormat.TEXT;

    boolean json() {
        return format == OutputFormat.JSON;
    }
}
