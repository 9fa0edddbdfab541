package mesh.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * HashedUpload sends the body of a blob upload whose digest is not known yet: {@code PATCH} of the upload's location
 * with the bytes streamed (the distribution API's "stream upload"), hashed as they are sent, so a file is read once
 * for both. {@link HttpRegistry#pushBlobHashed} then commits it under the digest it has ({@code PUT ?digest=}).
 *
 * <p>Over java.net.http.HttpClient, not HttpURLConnection as the rest of HttpRegistry: HttpURLConnection refuses the
 * method PATCH ("Invalid HTTP method"). The client is made once, when the first such upload is sent (only agents do:
 * a verb never pays for its TLS set-up), and sends from virtual threads.
 */
final class HashedUpload {

    /** The slowest upload accepted: 1 MB/s on average, after a minute's grace. */
    static Duration deadline(long size) {
        return Duration.ofSeconds(60).plusMillis(size / 1000);
    }

    private static final class Client {
        static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(HttpRegistry.CONNECT_TIMEOUT)
                .executor(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("registry-upload-", 0).factory()))
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    private HashedUpload() {
    }

    /** What a PATCH did: the registry's status and next location, and the sha256 of what was sent. */
    record Sent(int status, String location, MessageDigest sha, String body) {
    }

    /** PATCHes exactly {@code size} bytes of {@code in} to {@code location}, hashing them; the caller checks the status. */
    static Sent patch(URI location, long size, InputStream in) throws IOException, InterruptedException {
        MessageDigest sha = Digest.sha256();
        DigestInputStream hashed = new DigestInputStream(in, sha);
        HttpRequest request = HttpRequest.newBuilder(location).timeout(deadline(size))
                .header("Content-Type", "application/octet-stream")
                .method("PATCH", HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> hashed), size))
                .build();
        HttpResponse<String> response = Client.HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new Sent(response.statusCode(), response.headers().firstValue("Location").orElse(null), sha, response.body());
    }
}
