package mesh.cli;

import java.time.Duration;
import java.util.Locale;
import mesh.model.DurationText;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * OperatorValues reads the values of options and parameters in the operator's words, for every verb at once
 * ({@link MeshCommandLine} registers them): picocli's own converters say "'5m' is not a long" or "'yes' is not a
 * boolean", a Java type the operator never wrote. A refused value is said as {@code OPTION: 'VALUE' is not …}
 * ({@link ShortParseErrors}). Durations are {@link DurationText}'s, so a flag reads one as a manifest does.
 */
final class OperatorValues {

    private OperatorValues() {
    }

    /** Registers mesh's converters on {@code cmd} and the subcommands it has now. */
    static void register(CommandLine cmd) {
        ITypeConverter<Integer> whole = OperatorValues::wholeInt;
        ITypeConverter<Long> wholeLong = OperatorValues::wholeLong;
        ITypeConverter<Boolean> yesNo = OperatorValues::yesOrNo;
        ITypeConverter<Duration> duration = OperatorValues::duration;
        cmd.registerConverter(Integer.class, whole);
        cmd.registerConverter(Integer.TYPE, whole);
        cmd.registerConverter(Long.class, wholeLong);
        cmd.registerConverter(Long.TYPE, wholeLong);
        cmd.registerConverter(Boolean.class, yesNo);
        cmd.registerConverter(Boolean.TYPE, yesNo);
        cmd.registerConverter(Duration.class, duration);
    }

    static Integer wholeInt(String value) {
        long n = wholeLong(value);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new TypeConversionException("'" + value + "' is too large a number");
        }
        return (int) n;
    }

    static Long wholeLong(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException(value.strip().matches("-?[0-9]{19,}") ? "'" + value + "' is too large a number"
                    : "'" + value + "' is not a whole number");
        }
    }

    static Boolean yesOrNo(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "yes", "true" -> true;
            case "no", "false" -> false;
            default -> throw new TypeConversionException("expected yes or no, got '" + value + "'");
        };
    }

    static Duration duration(String value) {
        try {
            return DurationText.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
