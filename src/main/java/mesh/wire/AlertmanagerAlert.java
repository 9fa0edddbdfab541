package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * AlertmanagerAlert is one alert as Alertmanager's {@code POST /api/v2/alerts} takes it: labels (which alert it is:
 * Alertmanager groups, deduplicates and inhibits by them), annotations (what it says), when it began and when it
 * ends (in the future while it fires, so Alertmanager resolves it by itself if the controller stops saying it; the
 * time it resolved once it has).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AlertmanagerAlert(Map<String, String> labels, Map<String, String> annotations, String startsAt, String endsAt,
                                String generatorURL) {
}
