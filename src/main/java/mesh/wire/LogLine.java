package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mesh.model.DeclarationJson;

/**
 * LogLine is one line of {@code mesh logs}' stream (NDJSON, agent → controller → CLI): a line of a component's
 * output ({@code component}, {@code stream}: stdout or stderr for a container, output for a process, whose
 * two go to one file; {@code time}: when the engine stamped it, null for a process), or the end of one
 * component's stream ({@code end}: why a follow ended; {@code error}: why it broke off), or the controller's
 * first line ({@code components}: which are shown). A blank line is a keep-alive and carries nothing.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LogLine(String component, String stream, String time, String line, String end, String error,
                      List<String> components) {

    public static LogLine of(String component, String stream, String time, String line) {
        return new LogLine(component, stream, time, line, null, null, null);
    }

    public static LogLine ended(String component, String why) {
        return new LogLine(component, null, null, null, why, null, null);
    }

    public static LogLine failed(String component, String why) {
        return new LogLine(component, null, null, null, null, why, null);
    }

    public static LogLine shown(List<String> components) {
        return new LogLine(null, null, null, null, null, null, List.copyOf(components));
    }

    /** Whether this is a line of output (not an end, an error or the list of components). */
    public boolean output() {
        return line != null;
    }

    /** The line as NDJSON: its JSON and a line end. */
    public byte[] ndjson() {
        return (DeclarationJson.write(this) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A line read back; null for a keep-alive (a blank line). */
    public static LogLine read(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return DeclarationJson.MAPPER.readerFor(LogLine.class)
                    .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not a line of a log stream: "
                    + (text.length() > 120 ? text.substring(0, 120) + "…" : text), e);
        }
    }
}
