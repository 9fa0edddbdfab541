package mesh.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import mesh.client.ControllerApi;
import mesh.wire.ApiError;
import mesh.wire.CallFailure;
import mesh.wire.JsonHttp;

/**
 * ControllerClient is the CLI's connection to the controller: MESH_CONTROLLER and MESH_TOKEN (or the
 * config file), the mesh CA, one request over the JDK's HttpURLConnection, and each failure a {@link CallFailure}
 * in the operator's words (a refusal in the controller's own). The calls themselves are {@link ControllerApi}'s ({@link #api}), which the
 * installer speaks too. Not a generated REST client (quarkus-rest-client): that needs a boot, which a verb
 * does not make (docs/design.md, "One client per API", has the measurement).
 */
final class ControllerClient {

    static final String DEFAULT_URL = "http://127.0.0.1:7700";

    private final String base;
    /** Where the URL came from, as a message names it ({@code MESH_CONTROLLER from FILE}), or null when not known. */
    private final String from;
    private final String token;
    /** The mesh CA's certificate file (MESH_CA), which alone is trusted for an https:// controller. */
    private final String caFile;
    private javax.net.ssl.SSLSocketFactory tls;
    /** The controller's certificate as its last HTTPS answer presented it, or null. */
    private java.security.cert.X509Certificate controllerCertificate;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** A push waits for every node's preview and answer; the controller bounds each of those itself. */
    static final Duration READ_TIMEOUT = Duration.ofMinutes(10);
    /** How long a controller that says it is starting (503) is waited for. */
    static final Duration STARTING = Duration.ofSeconds(15);

    ControllerClient(Map<String, String> env) {
        this(env, null);
    }

    /** A client for {@code env}'s controller; {@code from} says where its URL came from ({@link #urlFrom}), for the messages. */
    ControllerClient(Map<String, String> env, String from) {
        this.from = from;
        this.base = controllerUrl(env.get("MESH_CONTROLLER"), from);
        this.token = env.get("MESH_TOKEN");
        this.caFile = env.get("MESH_CA");
        if (token == null || token.isBlank()) {
            throw new VerbFailure("MESH_TOKEN is not set: give an operator token (one 'mesh token create NAME' made, or the"
                    + " controller's MESH_CONTROLLER_TOKEN), or run where mesh install wrote ~/.config/mesh/config");
        }
        if (!token.equals(token.strip()) || token.chars().anyMatch(ch -> ch < 0x21 || ch > 0x7e)) {
            throw new VerbFailure("MESH_TOKEN: holds " + (token.contains("\n") || token.contains("\r") ? "a line break"
                    : "a space or a character that is not printable ASCII")
                    + "; give the operator token alone (was it read from a file with its newline?)");
        }
    }

    /**
     * MESH_CONTROLLER checked before any request: an http(s) URL with a host and nothing after the
     * port (a path would silently go to the wrong place), or the default when unset.
     */
    static String controllerUrl(String given) {
        return controllerUrl(given, null);
    }

    /** {@link #controllerUrl(String)}, its refusals naming where the URL came from. */
    static String controllerUrl(String given, String from) {
        if (given == null) {
            return DEFAULT_URL;
        }
        String shown = "MESH_CONTROLLER: an http(s) URL like http://HOST:7700 is needed, got '" + given + "'"
                + (from == null ? "" : " (" + from + ")");
        URI uri;
        try {
            uri = new URI(given.strip());
        } catch (java.net.URISyntaxException e) {
            throw new VerbFailure(shown + " (" + e.getReason() + ")");
        }
        if (given.isBlank()) {
            throw new VerbFailure("MESH_CONTROLLER is set but empty" + (from == null ? "" : " (" + from + ")") + ": unset it for "
                    + DEFAULT_URL + ", or give the controller's URL");
        }
        if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw new VerbFailure(shown + " (the scheme must be http or https)");
        }
        if (uri.getHost() == null) {
            throw new VerbFailure(shown + " (no host, or a host that is not a host name)");
        }
        if (uri.getRawPath() != null && !uri.getRawPath().matches("/*") || uri.getRawQuery() != null
                || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new VerbFailure(shown + " (only scheme, host and port: nothing after the port)");
        }
        return given.strip().replaceAll("/+$", "");
    }

    /**
     * The client for MESH_CONTROLLER and MESH_TOKEN; where neither is set, from the operator's config
     * file ({@code ~/.config/mesh/config}, written by {@code mesh install}).
     */
    static ControllerClient fromEnvironment() {
        return SeatLookup.client(withConfigFile(System.getenv()), urlFrom(System.getenv()));
    }

    /**
     * Where the controller's URL comes from, in the words a message uses: {@code MESH_CONTROLLER from the environment},
     * {@code MESH_CONTROLLER from /root/.config/mesh/config}, or the default and why.
     */
    static String urlFrom(Map<String, String> env) {
        if (env.containsKey("MESH_CONTROLLER")) {
            return "MESH_CONTROLLER from the environment";
        }
        java.nio.file.Path file = configFile(env);
        boolean read = !env.containsKey("MESH_TOKEN") && file != null && java.nio.file.Files.isRegularFile(file);
        if (read && ConfigFile.read(file).containsKey("MESH_CONTROLLER")) {
            return "MESH_CONTROLLER from " + file;
        }
        return "the default URL: MESH_CONTROLLER is set neither in the environment nor in " + (file == null ? "~/.config/mesh/config"
                : file) + (read ? "" : env.containsKey("MESH_TOKEN") ? " (not read: MESH_TOKEN is in the environment)" : " (there is none)");
    }

    /**
     * The environment, or, when it sets neither MESH_CONTROLLER nor MESH_TOKEN, the operator's config file
     * under it. Never the two mixed: the file's token belongs to the file's controller, and must not be sent
     * to another one named in the environment; so MESH_CONTROLLER alone is refused, saying why.
     */
    static Map<String, String> withConfigFile(Map<String, String> env) {
        if (env.containsKey("MESH_CONTROLLER") && !env.containsKey("MESH_TOKEN")) {
            throw new VerbFailure("MESH_TOKEN is not set, and MESH_CONTROLLER is (" + env.get("MESH_CONTROLLER")
                    + "): with MESH_CONTROLLER in the environment the config file (~/.config/mesh/config) is not read,"
                    + " as its token belongs to its own controller; set MESH_TOKEN too, or unset MESH_CONTROLLER");
        }
        if (env.containsKey("MESH_CONTROLLER") || env.containsKey("MESH_TOKEN")) {
            return env;
        }
        java.nio.file.Path file = configFile(env);
        if (file == null || !java.nio.file.Files.isRegularFile(file)) {
            return env;
        }
        Map<String, String> merged = new java.util.HashMap<>(OperatorConfig.read(file));
        merged.putAll(env);
        return merged;
    }

    /** {@code $HOME/.config/mesh/config}, where mesh install writes it. */
    static java.nio.file.Path configFile(Map<String, String> env) {
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return home == null ? null : java.nio.file.Path.of(home, ".config", "mesh", "config");
    }

    String base() {
        return base;
    }

    /** The mesh CA's certificate file this client trusts (MESH_CA), or null. */
    String caFile() {
        return caFile;
    }

    /**
     * The warnings for the certificates this client saw (the controller's, from its last answer, and
     * the mesh CA in MESH_CA) that expire within 30 days ({@code mesh status}).
     */
    java.util.List<String> certificateWarnings(java.time.Instant now) {
        java.util.List<String> warnings = new java.util.ArrayList<>();
        if (controllerCertificate != null) {
            mesh.trust.CertExpiry.warning("the controller's certificate", controllerCertificate.getNotAfter().toInstant(), now)
                    .ifPresent(warnings::add);
        }
        if (caFile != null && !caFile.isBlank() && base.startsWith("https:")) {
            try (InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(caFile.strip()))) {
                var ca = (java.security.cert.X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(in);
                mesh.trust.CertExpiry.warning("the mesh CA (" + caFile.strip() + ")", ca.getNotAfter().toInstant(), now)
                        .ifPresent(warnings::add);
            } catch (IOException | java.security.GeneralSecurityException | ClassCastException e) {
                // read before the request already; nothing to add
            }
        }
        return warnings;
    }

    /** The hash a joining node pins the mesh CA by ({@code sha256:} + hex of its DER), or null without MESH_CA. */
    String caHash() {
        if (caFile == null || caFile.isBlank()) {
            return null;
        }
        try (InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(caFile.strip()))) {
            byte[] der = java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in).getEncoded();
            return "sha256:" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(der));
        } catch (IOException e) {
            throw new VerbFailure("MESH_CA: cannot read a PEM certificate from " + caFile + " (" + FileProblem.reason(e) + ")");
        } catch (java.security.GeneralSecurityException e) {
            throw new VerbFailure("MESH_CA: cannot read a PEM certificate from " + caFile + " (not a certificate)");
        }
    }

    /** The controller's API over this client's connection ({@link ControllerApi}: every call by name). */
    ControllerApi api() {
        // a controller just started (by systemd, or by `mesh install`) says 503 + Retry-After until it serves: JsonHttp waits
        return new ControllerApi(new JsonHttp(this::exchange, token, words), READ_TIMEOUT, STARTING);
    }

    /**
     * What {@code call} answers, or {@code otherwise} when the controller fails it: for what a verb shows beside what
     * it is for (the takes under way, the controller's build), which an older controller cannot answer.
     */
    <T> T optional(java.util.function.Function<ControllerApi, T> call, T otherwise) {
        try {
            T answer = call.apply(api());
            return answer == null ? otherwise : answer;
        } catch (CallFailure | VerbFailure olderController) {
            return otherwise;
        }
    }

    /** What went wrong asking the controller, as the verb's failure in the operator's words. */
    private final JsonHttp.Words words = new JsonHttp.Words() {
        @Override
        public String unreachable(Exception e) {
            return e instanceof InterruptedException ? "interrupted while asking the controller"
                    : mesh.trust.TlsFailure.describe(e, base) != null
                    ? "the controller at " + base + ": " + mesh.trust.TlsFailure.describe(e, base)
                    : "cannot reach the controller at " + base + " (" + JsonHttp.why(e)
                    + "); is 'mesh controller serve' running, and is MESH_CONTROLLER right" + (from == null ? "" : " (" + from + ")")
                    + "?";
        }

        @Override
        public String refused(JsonHttp.Answer a, ApiError error) {
            if (error != null && error.reason() == mesh.wire.Reason.HOST_AGENT) {
                return "MESH_CONTROLLER: " + base + " is a host agent, not a controller" + (from == null ? "" : " (" + from + ")")
                        + "; give the controller's URL (its port is 7700 by default)";
            }
            if (error == null || error.error() == null || error.error().isBlank()) {
                String body = a.body() == null ? "" : a.body().strip();
                return "the server at " + base + " answered " + a.status() + (a.status() == 404 ? " (not found)" : "")
                        + (body.isEmpty() ? "" : ": " + (body.length() > 200 ? body.substring(0, 200) + "…" : body))
                        + "; is MESH_CONTROLLER a mesh controller" + (from == null ? "" : " (" + from + ")") + "?";
            }
            return errorOf(error);
        }

        @Override
        public String unreadable(JsonHttp.Answer a, String detail) {
            return "the controller answered something unreadable: " + detail;
        }
    };

    /**
     * One request over HttpURLConnection. Not java.net.http.HttpClient: building one initialises
     * the TLS stack even for http://, which cost a verb about half a second of its start here
     * (docs/benchmarks.md); a verb makes one request and exits.
     */
    private JsonHttp.Answer exchange(String method, String path, Map<String, String> headers, String body,
                                     Duration readTimeout) throws IOException {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
            if (c instanceof javax.net.ssl.HttpsURLConnection https) {
                https.setSSLSocketFactory(tls());
            }
            c.setRequestMethod(method);
            c.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            c.setReadTimeout((int) readTimeout.toMillis());
            headers.forEach(c::setRequestProperty);
            byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
            if (bytes != null && bytes.length > mesh.wire.RequestLimits.MAX_BODY_BYTES) {
                // the controller would refuse it (413): said before sending, not as a connection cut mid-upload
                throw new VerbFailure("nothing was sent: " + mesh.wire.RequestLimits.tooLarge(bytes.length));
            }
            c.setDoOutput(bytes != null);
            c.connect();
            // read while the connection is open: once an answer without a body (204) is read, it is released
            if (c instanceof javax.net.ssl.HttpsURLConnection https
                    && https.getServerCertificates().length > 0
                    && https.getServerCertificates()[0] instanceof java.security.cert.X509Certificate x) {
                controllerCertificate = x;
            }
            if (bytes != null) {
                try (OutputStream out = c.getOutputStream()) {
                    out.write(bytes);
                }
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new JsonHttp.Answer(status, text, c.getHeaderField("Retry-After") != null);
        } catch (IllegalArgumentException | java.net.MalformedURLException e) {
            throw new VerbFailure("MESH_CONTROLLER is not a URL like http://HOST:7700: '" + base + "'");
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    /**
     * A GET whose answer is a stream of lines ({@code mesh logs}), each handed to {@code line} as it comes. The
     * read timeout is {@code silence}: the controller sends a keep-alive (a blank line) while it has nothing, so
     * that long without a byte means it is stopped or the link is down, and the verb fails saying so. A refusal
     * before the stream is the controller's message, as for every call.
     */
    void lines(String path, Duration silence, java.util.function.Consumer<String> line) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
            if (c instanceof javax.net.ssl.HttpsURLConnection https) {
                https.setSSLSocketFactory(tls());
            }
            c.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            c.setReadTimeout((int) silence.toMillis());
            c.setRequestProperty("Authorization", "Bearer " + token);
            c.setRequestProperty("Accept", "application/x-ndjson");
            int status = c.getResponseCode();
            if (status >= 300) {
                InputStream err = c.getErrorStream();
                String text = err == null ? "" : new String(err.readAllBytes(), StandardCharsets.UTF_8);
                throw JsonHttp.refused(words, new JsonHttp.Answer(status, text, false));
            }
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l = in.readLine(); l != null; l = in.readLine()) {
                    line.accept(l);
                }
            }
        } catch (java.net.SocketTimeoutException e) {
            throw CallFailure.unreachable("the controller at " + base + " sent nothing for " + silence.toSeconds()
                    + " s, not even its keep-alive: it is stopped, or the link to it is down", e);
        } catch (IOException e) {
            throw JsonHttp.unreachable(words, e);
        } catch (IllegalArgumentException e) {
            throw new VerbFailure("MESH_CONTROLLER is not a URL like http://HOST:7700: '" + base + "'");
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    /**
     * The TLS of an https:// controller: only the mesh CA in MESH_CA is trusted (not the JDK's public
     * roots), and the host name is checked against the certificate's names. Read with the JDK's
     * certificate reader, not mesh.trust's Bouncy Castle one: a verb's start stays short.
     */
    private javax.net.ssl.SSLSocketFactory tls() {
        if (tls == null) {
            if (caFile == null || caFile.isBlank()) {
                throw new VerbFailure("MESH_CONTROLLER is " + base + (from == null ? "" : " (" + from + ")")
                        + " but MESH_CA is not set: name the mesh CA's certificate"
                        + " file (mesh install writes it into ~/.config/mesh/config), which alone is trusted");
            }
            java.security.cert.X509Certificate ca;
            try (InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(caFile.strip()))) {
                ca = (java.security.cert.X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(in);
            } catch (IOException | java.security.cert.CertificateException | ClassCastException e) {
                throw new VerbFailure("MESH_CA: cannot read a PEM certificate from " + caFile + " ("
                        + (e instanceof IOException io ? FileProblem.reason(io) : "not a certificate") + ")");
            }
            tls = mesh.trust.TlsContexts.trusting(ca).getSocketFactory();
        }
        return tls;
    }

    /** The controller's refusal; several problems each on a line of their own, under one head line. */
    private static String errorOf(ApiError error) {
        if (error.problems() != null && error.problems().size() > 1) {
            String joined = String.join("; ", error.problems());
            String head = error.error().endsWith(joined)
                    ? error.error().substring(0, error.error().length() - joined.length()).replaceAll("[:\\s]+$", "")
                    : error.error();
            return (head.isEmpty() ? error.problems().size() + " problems" : head) + ":\n  "
                    + String.join("\n  ", error.problems());
        }
        return error.error();
    }
}
