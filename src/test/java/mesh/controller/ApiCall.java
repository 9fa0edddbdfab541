package mesh.controller;

import mesh.wire.ManifestFile;
import static io.restassured.RestAssured.given;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mesh.model.DeclarationJson;

/**
 * ApiCall is one request to the controller's API, written down before the token is known: it is
 * sent with the operator token unless it says otherwise ({@link #noToken}, {@link #authorization}).
 */
record ApiCall(String method, String path, String contentType, String body, Auth auth, String authorization) {

    /** How a call authenticates. */
    enum Auth { TOKEN, NONE, RAW_TOKEN, HEADER }

    static ApiCall post(String path, String json) {
        return new ApiCall("POST", path, "application/json", json, Auth.TOKEN, null);
    }

    static ApiCall put(String path, String json) {
        return new ApiCall("PUT", path, "application/json", json, Auth.TOKEN, null);
    }

    static ApiCall put(String path) {
        return put(path, null);
    }

    static ApiCall delete(String path) {
        return new ApiCall("DELETE", path, null, null, Auth.TOKEN, null);
    }

    ApiCall noToken() {
        return new ApiCall(method, path, contentType, body, Auth.NONE, null);
    }

    /** Sent with the right token, but without the 'Bearer ' scheme. */
    ApiCall tokenWithoutScheme() {
        return new ApiCall(method, path, contentType, body, Auth.RAW_TOKEN, null);
    }

    /** Sent with exactly this Authorization header. */
    ApiCall authorization(String header) {
        return new ApiCall(method, path, contentType, body, Auth.HEADER, header);
    }

    ApiCall contentType(String type) {
        return new ApiCall(method, path, type, body, auth, authorization);
    }

    Response send(String token) {
        RequestSpecification request = given();
        switch (auth) {
            case TOKEN -> request.header("Authorization", "Bearer " + token);
            case RAW_TOKEN -> request.header("Authorization", token);
            case HEADER -> request.header("Authorization", authorization);
            case NONE -> { }
        }
        if (contentType != null) {
            request.contentType(contentType);
        }
        if (body != null) {
            request.body(body);
        }
        return request.when().request(method, path).thenReturn();
    }

    @Override
    public String toString() {
        return method + " " + path + (body == null ? "" : " " + body)
                + switch (auth) {
                    case TOKEN -> "";
                    case NONE -> " (no token)";
                    case RAW_TOKEN -> " (Authorization: <the token, without 'Bearer '>)";
                    case HEADER -> " (Authorization: " + authorization + ")";
                }
                + (contentType == null || contentType.equals("application/json") ? "" : " (Content-Type: " + contentType + ")");
    }

    // bodies

    /** The body of {@code POST /v1/mesh/catalogue}: file name, YAML, file name, YAML, … */
    static String files(String... nameThenYaml) {
        if (nameThenYaml.length % 2 != 0) {
            throw new IllegalArgumentException("files: give file name and YAML in pairs: " + Arrays.toString(nameThenYaml));
        }
        List<ManifestFile> files = new ArrayList<>();
        for (int i = 0; i < nameThenYaml.length; i += 2) {
            files.add(new ManifestFile(nameThenYaml[i], nameThenYaml[i + 1]));
        }
        return DeclarationJson.write(files);
    }

    static String node(String name, String address) {
        return "{\"name\":\"" + name + "\",\"address\":\"" + address + "\"}";
    }

    static String node(String name, String address, String agent) {
        return "{\"name\":\"" + name + "\",\"address\":\"" + address + "\",\"agent\":\"" + agent + "\"}";
    }
}
