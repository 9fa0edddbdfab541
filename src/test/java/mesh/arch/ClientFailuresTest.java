package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ClientFailuresTest keeps one failure type and one transport for every client of the mesh's APIs (docs/design.md,
 * "One client per API"): a failed call is a {@code mesh.wire.CallFailure} (its kind, status and reason branched on),
 * whichever client made it. No caller declares a failure of its own for a call (an {@code AgentClient.Unreachable},
 * a {@code SeatApi.Refused}, a {@code ControllerClient.Refusal} as there were): no exception class of a calling
 * package is named for a call's failure or carries a call's status or reason; {@code JsonHttp} takes a client's
 * words, never its exception. And the mesh's APIs are asked over {@code client.HttpTransport}, or the CLI's
 * HttpURLConnection: an HTTP client is built nowhere else but at the edges that ask no mesh API, each named with why.
 */
class ClientFailuresTest {

    /** The packages that call the mesh's APIs as clients (the serving side's refusals, mesh.api and mesh.host, are answers). */
    static final List<String> CALLERS = List.of("mesh/cli/", "mesh/client/", "mesh/controller/", "mesh/install/", "mesh/wire/");
    static final String CALL_FAILURE = "mesh/wire/CallFailure.java";

    static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    /** An exception class: one that extends a type named like a failure (RuntimeException, VerbFailure, InstallFailure…). */
    static final Pattern EXCEPTION_CLASS = Pattern.compile(
            "\\bclass\\s+(\\w+)\\s+extends\\s+[\\w.]*(Exception|Failure|Error|Refusal|Throwable)\\b");
    /** A name that says a call failed: what each client called its own failure before there was one. */
    static final Pattern CALL_FAILURE_NAME = Pattern.compile("\\w*(Unreachable|Refused|Refusal|Unanswered|CallFailed)");
    /** A field holding a call's status or the server's reason. */
    static final Pattern CALL_FIELD = Pattern.compile(
            "(?m)^\\s*(?:private|protected|public)?\\s*(?:final\\s+)?(?:mesh\\.wire\\.)?(?:Reason|int)\\s+(reason|status)\\s*;");

    /**
     * Where an HTTP client may be built besides HttpTransport, with why: each asks something that is not the mesh's API.
     */
    static final Map<String, String> OTHER_EDGES = Map.of(
            "mesh/client/HttpTransport.java", "the one transport itself",
            "mesh/cli/ControllerClient.java", "the CLI's HttpURLConnection: it starts faster (docs/benchmarks.md)",
            "mesh/bundle/HttpRegistry.java", "the artifact store's OCI registry API",
            "mesh/bundle/HashedUpload.java", "the artifact store's OCI registry API",
            "mesh/host/HealthProbe.java", "a module's own health check",
            "mesh/host/ProcessHealth.java", "a process's own health check",
            "mesh/host/edge/CaddyAdmin.java", "Caddy's admin API",
            "mesh/controller/AlertWatch.java", "an Alertmanager's API");
    static final Pattern HTTP_CLIENT = Pattern.compile("HttpClient\\s*\\.\\s*newBuilder|HttpClient\\s*\\.\\s*newHttpClient"
            + "|\\(\\s*HttpURLConnection\\s*\\)|\\(\\s*javax\\.net\\.ssl\\.HttpsURLConnection\\s*\\)");

    /** "FILE: CLASS why" for every failure of its own a calling package's source declares. */
    static List<String> ownFailures(String name, String source) {
        List<String> found = new ArrayList<>();
        if (name.equals(CALL_FAILURE) || CALLERS.stream().noneMatch(name::startsWith)) {
            return found;
        }
        String code = COMMENT.matcher(source).replaceAll(" ");
        Matcher m = EXCEPTION_CLASS.matcher(code);
        boolean exceptions = false;
        while (m.find()) {
            exceptions = true;
            if (CALL_FAILURE_NAME.matcher(m.group(1)).matches()) {
                found.add(name + ": " + m.group(1) + " is named for a failed call: throw a CallFailure");
            }
        }
        Matcher f = CALL_FIELD.matcher(code);
        if (exceptions && f.find()) {
            found.add(name + ": an exception class with a field '" + f.group(1) + "': a call's status and reason are CallFailure's");
        }
        return found;
    }

    /** "FILE builds an HTTP client" for every source outside HttpTransport and the other edges that builds one. */
    static List<String> ownTransports(String name, String source) {
        if (OTHER_EDGES.containsKey(name)) {
            return List.of();
        }
        return HTTP_CLIENT.matcher(COMMENT.matcher(source).replaceAll(" ")).find()
                ? List.of(name + " builds an HTTP client: ask over mesh.client.HttpTransport") : List.of();
    }

    @Test
    void noClientDeclaresAFailureOfItsOwn() throws IOException {
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> problems.addAll(ownFailures(name, source)));
        assertEquals(List.of(), problems);
    }

    @Test
    void jsonHttpTakesAClientsWordsNeverItsException() {
        List<String> problems = new ArrayList<>();
        for (Class<?> nested : mesh.wire.JsonHttp.class.getDeclaredClasses()) {
            for (Method method : nested.getDeclaredMethods()) {
                if (Throwable.class.isAssignableFrom(method.getReturnType())) {
                    problems.add(nested.getSimpleName() + "." + method.getName() + " returns " + method.getReturnType().getName());
                }
            }
        }
        assertEquals(List.of(), problems);
        assertEquals(List.of("refused", "unreachable", "unreadable"), Arrays.stream(mesh.wire.JsonHttp.Words.class.getDeclaredMethods())
                .filter(m -> m.getReturnType() == String.class).map(Method::getName).sorted().toList());
    }

    @Test
    void theMeshsApisAreAskedOverOneTransport() throws IOException {
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> problems.addAll(ownTransports(name, source)));
        assertEquals(List.of(), problems);
    }

    @Test
    void theScansCatchWhatTheyMustCatch() {
        String unreachable = """
                package mesh.controller;
                class AgentClient {
                    public static class Unreachable extends RuntimeException {
                        private final int status;
                    }
                }
                """;
        assertEquals(List.of("mesh/controller/AgentClient.java: Unreachable is named for a failed call: throw a CallFailure",
                "mesh/controller/AgentClient.java: an exception class with a field 'status': a call's status and reason are"
                        + " CallFailure's"), ownFailures("mesh/controller/AgentClient.java", unreachable));
        String refused = """
                package mesh.install;
                final class SeatApi {
                    static final class Rejected extends InstallFailure {
                        private final mesh.wire.Reason reason;
                    }
                }
                """;
        assertEquals(List.of("mesh/install/SeatApi.java: an exception class with a field 'reason': a call's status and reason are"
                + " CallFailure's"), ownFailures("mesh/install/SeatApi.java", refused));
        assertEquals(List.of("mesh/cli/X.java: Refusal is named for a failed call: throw a CallFailure"),
                ownFailures("mesh/cli/X.java", "class Refusal extends VerbFailure {}"));
        // the serving side's refusals are answers, not a client's failures; a comment is not code
        assertEquals(List.of(), ownFailures("mesh/api/Refusal.java", "class Refusal extends RuntimeException { int status; }"));
        assertEquals(List.of(), ownFailures("mesh/cli/X.java", "// class Refusal extends VerbFailure {}"));
        assertEquals(List.of("mesh/install/JoinTls.java builds an HTTP client: ask over mesh.client.HttpTransport"),
                ownTransports("mesh/install/JoinTls.java", "var h = HttpClient.newBuilder().build();"));
        assertEquals(List.of("mesh/cli/Other.java builds an HTTP client: ask over mesh.client.HttpTransport"),
                ownTransports("mesh/cli/Other.java", "c = (HttpURLConnection) url.openConnection();"));
        assertEquals(List.of(), ownTransports("mesh/client/HttpTransport.java", "HttpClient.newBuilder()"));
    }
}
