package mesh.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * ApiError is the body of every refused request: one message for a person, the list when there are
 * several problems, and the {@link Reason} a program branches on. Read leniently (a newer server may
 * add fields or reasons: an unknown reason reads as {@link Reason#OTHER}); a server from before
 * reasons sends none, which reads as null.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiError(String error, List<String> problems,
                       @JsonFormat(with = JsonFormat.Feature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE) Reason reason) {

    public ApiError(String error, List<String> problems) {
        this(error, problems, null);
    }
}
