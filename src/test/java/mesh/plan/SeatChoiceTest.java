package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mesh.plan.SeatChoice.Answer;
import mesh.plan.SeatChoice.Asked;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SeatChoiceTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "ANSWERS DEPOSED|https://c1:7700",
            "DEPOSED ANSWERS|https://c2:7700",          // after a promote: the old seat is skipped, nothing edited
            "UNREACHABLE ANSWERS|https://c2:7700",      // the seat's machine is dead
            "UNREACHABLE DEPOSED ANSWERS|https://c3:7700",
            "DEPOSED UNREACHABLE|''",
            "UNREACHABLE UNREACHABLE|''",
    })
    void theFirstControllerThatAnswersAndWasNotDeposedIsTheSeat(String answers, String seat) {
        List<Asked> asked = new ArrayList<>();
        String[] each = answers.split(" ");
        for (int i = 0; i < each.length; i++) {
            Answer a = Answer.valueOf(each[i]);
            asked.add(new Asked("https://c" + (i + 1) + ":7700", a, a == Answer.ANSWERS ? null : "said " + a));
        }
        assertEquals(seat.isEmpty() ? Optional.empty() : Optional.of(seat), SeatChoice.seat(asked));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://ace:7700,https://n2:7700|https://ace:7700 https://n2:7700",
            " https://ace:7700 , https://n2:7700 ,|https://ace:7700 https://n2:7700",
            "https://ace:7700|https://ace:7700",
    })
    void mesh_controllerNamesOneOrSeveralControllers(String given, String urls) {
        assertEquals(List.of(urls.split(" ")), SeatChoice.urls(given));
    }

    @Test
    void aPromoteIsNamedOnlyWhenAControllerCouldNotBeReached() {
        assertEquals("no controller of MESH_CONTROLLER answers as the seat:\n  https://ace:7700: deposed"
                        + "\n  https://n2:7700: deposed",
                SeatChoice.noSeat(List.of(new Asked("https://ace:7700", Answer.DEPOSED, "deposed"),
                        new Asked("https://n2:7700", Answer.DEPOSED, "deposed"))));
    }

    @Test
    void whenNoneAnswersEachIsNamedWithWhatItSaid() {
        assertEquals("no controller of MESH_CONTROLLER answers as the seat:\n  https://ace:7700: this controller was deposed"
                        + "\n  https://n2:7700: cannot reach the controller"
                        + "\nif the seat's machine is lost for good, promote its standby: as root on the standby's node,"
                        + " `mesh seat promote NODE` (NODE: that node's name; docs/seat.md says when and how)",
                SeatChoice.noSeat(List.of(new Asked("https://ace:7700", Answer.DEPOSED, "this controller was deposed"),
                        new Asked("https://n2:7700", Answer.UNREACHABLE, "cannot reach the controller"))));
    }
}
