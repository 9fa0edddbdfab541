package mesh.model;

import java.util.List;

/** InvalidInput is input that was refused; it lists every problem, each naming what was wrong. */
public class InvalidInput extends RuntimeException {
    private final List<String> problems;

    public InvalidInput(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
