package mesh.controller;

import mesh.api.Refusal;

/** Bodies: a request without the body it needs is refused with what it should have carried. */
final class Bodies {

    private Bodies() {
    }

    static <T> T required(T body, String expected) {
        if (body == null) {
            throw new Refusal(400, "the request needs a JSON body: " + expected);
        }
        return body;
    }
}
