package mesh.host;

import java.util.function.Supplier;
import mesh.api.Refusal;
import mesh.host.take.TakeRefused;
import mesh.model.DeclarationJson;

/**
 * AgentCalls is what the agent's take and backup endpoints ({@link TakeResource}, {@link BackupResource}) share: a
 * request body read with the declarations' strict mapper, so a wrong one is a 400 naming the field and showing the
 * form expected, and a call whose refusal becomes the agent's error answer.
 */
final class AgentCalls {

    private AgentCalls() {
    }

    /**
     * The body as {@code type} (an empty body reads as {@code {}}); else a 400 naming what was wrong and showing
     * {@code example} (never the parser's own words, which name classes).
     */
    static <T> T read(String body, Class<T> type, String example) {
        try {
            return DeclarationJson.MAPPER.readValue(body == null || body.isBlank() ? "{}" : body, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Refusal(400, DeclarationJson.describe(e) + "; the body must be JSON of the form " + example);
        }
    }

    /** Runs a take's or a backup's call: its refusal is the answer's (status and reason), the engine or the disk failing a 503. */
    static <T> T call(Supplier<T> body) {
        try {
            return body.get();
        } catch (TakeRefused e) {
            throw new Refusal(e.status(), e.reason(), e.getMessage());
        } catch (java.io.UncheckedIOException | mesh.docker.EngineFailure | HostFailure e) {
            throw new Refusal(503, e.getMessage());
        }
    }
}
