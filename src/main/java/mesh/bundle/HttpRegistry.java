package mesh.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HttpRegistry is {@link Registry} over the JDK's HttpURLConnection, written by hand. Maven Central
 * was checked for a client: the ORAS Java SDK (land.oras:oras-java-sdk 0.7.0) brings Jackson 3 beside
 * Quarkus's Jackson 2, zstd-jni (a JNI library, not native-image ready without extra work),
 * BouncyCastle, Caffeine and Micrometer; jib-core builds container images, not artifacts of our own
 * media types, and brings Google's HTTP client on Apache HttpClient 4 (a second HTTP stack beside
 * docker-java's httpclient5). A bundle needs a handful of calls of the distribution API; here they are.
 * HttpURLConnection rather than java.net.http.HttpClient for the reason ControllerClient gives:
 * building an HttpClient initialises the TLS stack even for http://, half a second of a verb's start.
 */
public final class HttpRegistry implements Registry {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Between two reads of one response; a large layer may take long in all, but never stalls this long. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"?next\"?");

    private final URI base;
    private final String address;

    /** @param url the registry's base URL, e.g. {@code http://10.77.0.11:5000} */
    public HttpRegistry(String url) {
        String trimmed = url == null ? "" : url.strip().replaceAll("/+$", "");
        URI uri;
        try {
            uri = URI.create(trimmed);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || uri.getHost() == null || !(trimmed.startsWith("http://") || trimmed.startsWith("https://"))) {
            throw new BundleFailure("the artifact store", BundleFailure.Reason.INPUT,
                    "'" + url + "' is not a URL like http://HOST:5000");
        }
        this.base = uri;
        this.address = trimmed;
    }

    @Override
    public String address() {
        return address;
    }

    private String store() {
        return "the artifact store at " + address;
    }

    @Override
    public void ping() {
        try (Exchange x = open("GET", "/v2/", store(), Map.of())) {
            x.expect(store(), 200);
        }
    }

    @Override
    public boolean hasBlob(String name, Digest digest) {
        try (Exchange x = open("HEAD", "/v2/" + name + "/blobs/" + digest, subject(name), Map.of())) {
            if (x.status == 404) {
                return false;
            }
            x.expect(subject(name), 200);
            return true;
        }
    }

    @Override
    public void pushBlob(String name, Digest digest, long size, Path file) {
        upload(name, digest, new Upload(size, out -> {
            try (InputStream in = Files.newInputStream(file)) {
                copy(in, out);
            }
        }));
    }

    @Override
    public void pushBlob(String name, Digest digest, long size, InputStream in) {
        upload(name, digest, new Upload(size, out -> copy(in, out)));
    }

    /** How much of an upload is read and written at once: 1 MiB, not transferTo's 16 KiB (fewer system calls). */
    private static final int SEND_BUFFER = 1024 * 1024;

    /**
     * Copies {@code in} to {@code out} a {@link #SEND_BUFFER} at a time: a backup's 2 GB file sent 16 KiB at a time
     * (InputStream.transferTo, and Files.copy through it) is 131,072 reads and as many writes to the socket; 1 MiB,
     * 2,048 of each, and the agent's CPU for a backup of new data went from 6.2–7.2 s to 4.7–4.8 s
     * (docs/benchmarks.md, "Four streams, and every byte new").
     */
    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[SEND_BUFFER];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            out.write(buffer, 0, n);
        }
    }

    @Override
    public boolean deleteManifest(String name, Digest digest) {
        try (Exchange x = open("DELETE", "/v2/" + name + "/manifests/" + digest, subject(name), Map.of())) {
            if (x.status == 405) {
                return false;
            }
            if (x.status != 202 && x.status != 404) {
                x.expect(subject(name), 202);
            }
            return true;
        }
    }

    @Override
    public void pushBlob(String name, Digest digest, byte[] content) {
        upload(name, digest, new Upload(content.length, out -> out.write(content)));
    }

    private void upload(String name, Digest digest, Upload body) {
        commit(name, begin(name), digest, body);
    }

    /** {@code POST /v2/NAME/blobs/uploads/}: a new upload's location. */
    private URI begin(String name) {
        String location;
        try (Exchange x = open("POST", "/v2/" + name + "/blobs/uploads/", subject(name), Map.of())) {
            x.expect(subject(name), 202);
            location = x.connection.getHeaderField("Location");
        }
        if (location == null) {
            throw new BundleFailure(subject(name), BundleFailure.Reason.REGISTRY, store() + " started an upload but gave no Location");
        }
        return base.resolve(location);
    }

    /** {@code PUT LOCATION?digest=}: the upload ends with {@code body} (empty after a PATCH) and is kept as {@code digest}. */
    private void commit(String name, URI upload, Digest digest, Upload body) {
        String put = upload + (upload.getRawQuery() == null ? "?" : "&") + "digest=" + digest;
        try (Exchange x = open("PUT", URI.create(put), subject(name), Map.of("Content-Type", "application/octet-stream"), body)) {
            x.expect(subject(name), 201);
        }
    }

    @Override
    public Digest pushBlobHashed(String name, long size, InputStream in) {
        URI upload = begin(name);
        HashedUpload.Sent sent;
        try {
            sent = HashedUpload.patch(upload, size, in);
        } catch (IOException e) {
            throw unreachable(subject(name), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BundleFailure(subject(name), BundleFailure.Reason.UNREACHABLE, "interrupted while sending to " + store(), e);
        }
        if (sent.status() != 202 || sent.location() == null) {
            throw new BundleFailure(subject(name), BundleFailure.Reason.REGISTRY, store() + " answered " + sent.status()
                    + " to PATCH " + upload.getPath() + (sent.body().isBlank() ? "" : " (" + sent.body().strip() + ")"));
        }
        Digest digest = Digest.of(sent.sha());
        commit(name, base.resolve(sent.location()), digest, Upload.EMPTY);
        return digest;
    }

    @Override
    public Digest putManifest(String name, String tag, byte[] manifest) {
        try (Exchange x = open("PUT", base.resolve("/v2/" + name + "/manifests/" + tag), subject(name),
                Map.of("Content-Type", BundleManifest.MANIFEST_TYPE), new Upload(manifest.length, out -> out.write(manifest)))) {
            x.expect(subject(name), 201);
            return Digest.parse(x.connection.getHeaderField("Docker-Content-Digest"));
        }
    }

    @Override
    public InputStream manifest(String name, String reference) {
        return body("/v2/" + name + "/manifests/" + reference, subject(name), Map.of("Accept", BundleManifest.MANIFEST_TYPE));
    }

    @Override
    public InputStream blob(String name, Digest digest) {
        return body("/v2/" + name + "/blobs/" + digest, subject(name), Map.of());
    }

    @Override
    public List<String> repositories() {
        return paged("/v2/_catalog?n=1000", "repositories", store());
    }

    @Override
    public List<String> tags(String name) {
        return paged("/v2/" + name + "/tags/list", "tags", subject(name));
    }

    private List<String> paged(String first, String field, String subject) {
        List<String> all = new ArrayList<>();
        String path = first;
        while (path != null) {
            try (Exchange x = open("GET", path, subject, Map.of("Accept", "application/json"))) {
                x.expect(subject, 200);
                JsonNode list = BundleManifest.JSON.readTree(x.connection.getInputStream()).path(field);
                list.forEach(n -> all.add(n.asText()));
                Matcher next = NEXT.matcher(String.valueOf(x.connection.getHeaderField("Link")));
                path = next.find() ? next.group(1) : null;
            } catch (IOException e) {
                throw new BundleFailure(subject, BundleFailure.Reason.REGISTRY, store() + " sent an unreadable list: " + describe(e));
            }
        }
        return all;
    }

    private InputStream body(String path, String subject, Map<String, String> headers) {
        Exchange x = open("GET", path, subject, headers);
        try {
            x.expect(subject, 200);
            return new Closing(x);
        } catch (RuntimeException e) {
            x.close();
            throw e;
        } catch (IOException e) {
            x.close();
            throw unreachable(subject, e);
        }
    }

    private Exchange open(String method, String path, String subject, Map<String, String> headers) {
        return open(method, base.resolve(path), subject, headers, method.equals("POST") ? Upload.EMPTY : null);
    }

    /** Upload is a request body: its exact length and how to write it. */
    private record Upload(long size, Writer writer) {
        static final Upload EMPTY = new Upload(0, out -> { });
    }

    /** Writer writes a request body. */
    private interface Writer {
        void write(OutputStream out) throws IOException;
    }

    /** One request; the status is read, the body (if any) is left for the caller. */
    private Exchange open(String method, URI uri, String subject, Map<String, String> headers, Upload body) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) uri.toURL().openConnection();
            c.setRequestMethod(method);
            c.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            c.setReadTimeout((int) READ_TIMEOUT.toMillis());
            headers.forEach(c::setRequestProperty);
            if (body != null) {
                c.setDoOutput(true);
                c.setFixedLengthStreamingMode(body.size());
                try (OutputStream out = c.getOutputStream()) {
                    body.writer().write(out);
                }
            }
            return new Exchange(c, c.getResponseCode());
        } catch (IOException e) {
            if (c != null) {
                c.disconnect();
            }
            throw unreachable(subject, e);
        }
    }

    private BundleFailure unreachable(String subject, IOException e) {
        return new BundleFailure(subject, BundleFailure.Reason.UNREACHABLE, store() + " does not answer (" + describe(e) + ")", e);
    }

    /** Words for a network failure, never the exception's type. */
    static String describe(IOException e) {
        if (e instanceof ConnectException) {
            return "connection refused: is the registry running, and is its address right?";
        }
        if (e instanceof SocketTimeoutException) {
            return "timed out";
        }
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof NoRouteToHostException) {
            return "no route to host";
        }
        return e.getMessage() == null ? "the connection failed" : e.getMessage();
    }

    private static String subject(String name) {
        return BundleFailure.subject(name);
    }

    /** Exchange is one open request: its connection and status; closing it ends the connection. */
    private final class Exchange implements AutoCloseable {
        final HttpURLConnection connection;
        final int status;

        Exchange(HttpURLConnection connection, int status) {
            this.connection = connection;
            this.status = status;
        }

        /** Fails with the registry's own error codes unless the status is the one expected. */
        void expect(String subject, int expected) {
            if (status == expected) {
                return;
            }
            String errors = registryErrors();
            BundleFailure.Reason reason = status == 404 ? BundleFailure.Reason.NOT_FOUND : BundleFailure.Reason.REGISTRY;
            String what = switch (status) {
                case 404 -> "not found in " + store();
                case 401, 403 -> store() + " refused access (" + status + "); mesh sends no registry credentials";
                default -> store() + " answered " + status + " to " + connection.getRequestMethod() + " "
                        + connection.getURL().getPath();
            };
            throw new BundleFailure(subject, reason, what + (errors.isEmpty() ? "" : " (" + errors + ")"));
        }

        /** The registry's error codes and messages, e.g. "MANIFEST_UNKNOWN: manifest unknown". */
        private String registryErrors() {
            try (InputStream in = connection.getErrorStream()) {
                if (in == null) {
                    return "";
                }
                byte[] bytes = in.readNBytes(64 * 1024);
                List<String> parts = new ArrayList<>();
                BundleManifest.JSON.readTree(bytes).path("errors")
                        .forEach(e -> parts.add(e.path("code").asText() + ": " + e.path("message").asText()));
                return parts.isEmpty() ? new String(bytes, StandardCharsets.UTF_8).strip() : String.join("; ", parts);
            } catch (IOException | RuntimeException e) {
                return "";
            }
        }

        @Override
        public void close() {
            connection.disconnect();
        }
    }

    /** Closing is a response body whose close also ends its connection. */
    private static final class Closing extends java.io.FilterInputStream {
        private final Exchange exchange;

        Closing(Exchange exchange) throws IOException {
            super(exchange.connection.getInputStream());
            this.exchange = exchange;
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                exchange.close();
            }
        }
    }
}
