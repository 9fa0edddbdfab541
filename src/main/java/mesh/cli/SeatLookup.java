package mesh.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mesh.plan.SeatChoice;
import mesh.wire.CallFailure;
import mesh.wire.Reason;

/**
 * SeatLookup is the edge of {@link SeatChoice}: with several controllers in MESH_CONTROLLER it asks each, in order,
 * for its build (a read every controller answers), and gives the client of the first that answers as seat. With one
 * URL it asks nothing: the verb's own request is the question.
 */
final class SeatLookup {

    private SeatLookup() {
    }

    static ControllerClient client(Map<String, String> env, String from) {
        String given = env.get("MESH_CONTROLLER");
        List<String> urls = given == null ? List.of() : SeatChoice.urls(given);
        if (urls.size() < 2) {
            return new ControllerClient(env, from);
        }
        List<SeatChoice.Asked> asked = new ArrayList<>();
        for (String url : urls) {
            Map<String, String> one = new HashMap<>(env);
            one.put("MESH_CONTROLLER", url);
            ControllerClient client = new ControllerClient(one, from);
            SeatChoice.Asked a = ask(client);
            if (a.answer() == SeatChoice.Answer.ANSWERS) {
                return client;
            }
            asked.add(a);
        }
        throw new VerbFailure(SeatChoice.noSeat(asked));
    }

    private static SeatChoice.Asked ask(ControllerClient client) {
        try {
            client.api().build();
            return new SeatChoice.Asked(client.base(), SeatChoice.Answer.ANSWERS, null);
        } catch (CallFailure failed) {
            // a refusal is an answer, but a host agent's (MESH_CONTROLLER names no controller) and an unreadable one are not
            boolean answered = failed.refused() && failed.reason() != Reason.HOST_AGENT;
            return new SeatChoice.Asked(client.base(), !answered ? SeatChoice.Answer.UNREACHABLE
                    : failed.reason() == Reason.DEPOSED ? SeatChoice.Answer.DEPOSED : SeatChoice.Answer.ANSWERS,
                    failed.getMessage());
        } catch (VerbFailure unreachable) {
            return new SeatChoice.Asked(client.base(), SeatChoice.Answer.UNREACHABLE, unreachable.getMessage());
        }
    }
}
