package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The help texts of the mixed-in {@code --json} and {@code --repo}: every text in {@code OptionTexts.properties}
 * belongs to a command that has the option and is the one its help shows (a renamed command would otherwise fall
 * back to the mixin's text without a word).
 */
class OptionTextsTest {
    private static final ResourceBundle TEXTS = ResourceBundle.getBundle("dev.paddock.cli.OptionTexts");

    @Test
    void everyTextNamesACommandWithThatOptionAndIsShownInItsHelp() {
        CommandLine cli = PaddockCommand.commandLine(null);
        assertThat(TEXTS.keySet()).isNotEmpty();
        for (String key : TEXTS.keySet()) {
            int dot = key.lastIndexOf('.');
            String option = "--" + key.substring(dot + 1);
            CommandSpec command = find(cli, key.substring(0, dot));
            assertThat(command).as(key).isNotNull();
            OptionSpec spec = command.findOption(option);
            assertThat(spec).as(key).isNotNull();
            assertThat(String.join(" ", spec.description())).as(key).isEqualTo(TEXTS.getString(key));
            assertThat(command.commandLine()
                            .getUsageMessage(CommandLine.Help.Ansi.OFF)
                            .replaceAll("\\s+", " "))
                    .as(key)
                    .contains(TEXTS.getString(key).replaceAll("\\s+", " "));
        }
    }

    @Test
    void everyJsonOptionIsTheMixinWithItsOwnText() {
        List<String> commands = new ArrayList<>();
        walk(PaddockCommand.commandLine(null).getCommandSpec(), commands);
        assertThat(commands).contains("paddock status", "paddock sandbox list", "paddock merge config");
        for (String name : commands) {
            assertThat(TEXTS.containsKey(name.replace(' ', '.') + ".json"))
                    .as(name)
                    .isTrue();
        }
    }

    private static void walk(CommandSpec spec, List<String> withJson) {
        if (spec.findOption("--json") != null) {
            withJson.add(spec.qualifiedName());
        }
        spec.subcommands().values().forEach(c -> walk(c.getCommandSpec(), withJson));
    }

    private static CommandSpec find(CommandLine root, String qualifiedName) {
        if (root.getCommandSpec().qualifiedName(".").equals(qualifiedName)) {
            return root.getCommandSpec();
        }
        for (CommandLine sub : root.getSubcommands().values()) {
            CommandSpec found = find(sub, qualifiedName);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
