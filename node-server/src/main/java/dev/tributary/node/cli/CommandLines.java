package dev.tributary.node.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How every Tributary command line is read: picocli over an options object whose annotated fields
 * are the command's option table (name, type, default, doc). One place sets what all of them share:
 * the duration and number grammars, the last of a repeated option wins, no {@code @file}
 * expansion (a statement may start with {@code @}), errors that name the option and never echo a
 * value that was not asked for (a mistyped {@code --pasword=...}), and help that writes
 * {@code --option VALUE} as the commands always documented it.
 */
public final class CommandLines {
    private static final int HELP_WIDTH = 100;

    private CommandLines() {
    }

    /** A picocli command line over {@code options} with the shared converters and settings. */
    public static CommandLine of(Object options) {
        CommandLine cl = new CommandLine(options);
        cl.setExpandAtFiles(false);
        cl.setOverwrittenOptionsAllowed(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpWidth(HELP_WIDTH);
        cl.setUsageHelpLongOptionsMaxWidth(40);
        cl.registerConverter(Duration.class, new DurationConverter());
        cl.registerConverter(Integer.class, CommandLines::wholeInt);
        cl.registerConverter(Integer.TYPE, CommandLines::wholeInt);
        cl.registerConverter(Long.class, CommandLines::wholeLong);
        cl.registerConverter(Long.TYPE, CommandLines::wholeLong);
        cl.registerConverter(Boolean.class, CommandLines::trueOrFalse);
        cl.registerConverter(Boolean.TYPE, CommandLines::trueOrFalse);
        cl.setHelpFactory((spec, colors) -> new Help(spec, colors) {
            @Override
            public IParamLabelRenderer parameterLabelRenderer() {
                return new SpacedLabels(super.parameterLabelRenderer());
            }
        });
        return cl;
    }

    /**
     * Parses {@code args} into the command line's options object.
     *
     * @throws IllegalArgumentException whose message names the option (or argument) and what was
     *         expected, as {@link #describe} words it
     */
    public static void parse(CommandLine cl, List<String> args) {
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
    }

    /** The generated help of the command line, without colours. */
    public static String usage(CommandLine cl) {
        StringWriter w = new StringWriter();
        cl.usage(new PrintWriter(w), Help.Ansi.OFF);
        return w.toString();
    }

    /**
     * One line for a command line picocli refused: {@code unknown option '--x'} (the name only, a
     * value after {@code =} may be a password), {@code unexpected argument 'x'}, {@code --x needs a
     * value}, or {@code --x <what the converter expected>}.
     */
    public static String describe(ParameterException e) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().get(0);
            return arg.startsWith("-") ? "unknown option '" + nameOf(arg) + "'" : "unexpected argument '" + arg + "'";
        }
        ArgSpec arg = e.getArgSpec();
        if (e instanceof MissingParameterException m && !m.getMissing().isEmpty()) {
            arg = m.getMissing().get(0);
            return label(arg) + " needs a value";
        }
        if (e.getCause() instanceof TypeConversionException t && arg != null) {
            return label(arg) + " " + t.getMessage();
        }
        if (e.getCause() != null && arg != null) {
            return label(arg) + " " + e.getCause().getMessage();
        }
        return e.getMessage();
    }

    /** An option that takes no value (its optional {@code =true/=false} aside). */
    public static boolean isFlag(ArgSpec arg) {
        return arg.isOption() && arg.arity().min == 0 && (arg.type() == boolean.class || arg.type() == Boolean.class);
    }

    private static String label(ArgSpec arg) {
        return arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
    }

    private static String nameOf(String arg) {
        int eq = arg.indexOf('=');
        return eq < 0 ? arg : arg.substring(0, eq);
    }

    private static Integer wholeInt(String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("wants a whole number, got '" + v + "'");
        }
    }

    private static Long wholeLong(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("wants a whole number, got '" + v + "'");
        }
    }

    private static Boolean trueOrFalse(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new TypeConversionException("wants true or false, got '" + v + "'");
        };
    }

    /** Help labels as {@code --option VALUE}, the way the commands are documented (and accepted: both forms parse). */
    private record SpacedLabels(Help.IParamLabelRenderer plain) implements Help.IParamLabelRenderer {
        @Override
        public Help.Ansi.Text renderParameterLabel(ArgSpec arg, Help.Ansi ansi, List<Help.Ansi.IStyle> styles) {
            Help.Ansi.Text t = plain.renderParameterLabel(arg, ansi, styles);
            String s = t.plainString();
            if (isFlag(arg)) {
                return ansi.text(""); // a flag: its optional =true/=false is for properties files and scripts
            }
            if (!arg.isOption() || !s.startsWith(plain.separator())) {
                return t;
            }
            String label = s.substring(plain.separator().length());
            return ansi.text(label.isBlank() ? "" : " " + label);
        }

        @Override
        public String separator() {
            return " ";
        }
    }
}
