package mesh.cli;

/** OutputFormat is {@code -o}: tables and lines for people, one JSON document for scripts. */
public enum OutputFormat {
    TEXT, JSON
}
