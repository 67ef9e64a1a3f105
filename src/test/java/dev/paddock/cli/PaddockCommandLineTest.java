package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Which commands picocli is given for a command line: only the one named, or all of them. */
class PaddockCommandLineTest {

    @Test
    void theTableNamesEveryCommandAsItsAnnotationDoes() {
        Map<String, String> annotated = PaddockCommand.COMMANDS.entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey,
                        e -> e.getValue().getAnnotation(Command.class).name()));
        annotated.forEach(
                (key, name) -> assertThat(name).as("@Command name of " + key).isEqualTo(key));
    }

    @Test
    void aNamedCommandIsTheOnlyOnePicocliBuilds() {
        CommandLine cli = PaddockCommand.commandLine(null, "--home", "/tmp/h", "status", "--json");
        assertThat(cli.getSubcommands()).containsOnlyKeys("status");
        assertThat(PaddockCommand.commandLine(null, "sandbox", "list").getSubcommands())
                .containsOnlyKeys("sandbox");
    }

    @Test
    void theValueOfARootOptionIsNotTakenForACommand() {
        assertThat(PaddockCommand.commandName("--repo", "status", "sandbox", "list"))
                .isEqualTo("sandbox");
        assertThat(PaddockCommand.commandName("--home", "serve")).isNull();
        assertThat(PaddockCommand.commandName("--home=/h", "merge", "list")).isEqualTo("merge");
        assertThat(PaddockCommand.commandName("--store", "jdbc:postgresql://db/p", "serve"))
                .isEqualTo("serve");
    }

    @Test
    void helpAndUnknownNamesGetEveryCommandForTheUsageAndTheSuggestions() {
        assertThat(PaddockCommand.commandLine(null).getSubcommands().keySet())
                .containsExactlyElementsOf(PaddockCommand.COMMANDS.keySet());
        assertThat(PaddockCommand.commandLine(null, "--help").getSubcommands()).hasSameSizeAs(PaddockCommand.COMMANDS);
        CommandLine misspelt = PaddockCommand.commandLine(null, "stauts");
        assertThat(misspelt.getSubcommands()).hasSameSizeAs(PaddockCommand.COMMANDS);
        java.io.StringWriter err = new java.io.StringWriter();
        misspelt.setErr(new java.io.PrintWriter(err));
        assertThat(misspelt.execute("stauts")).isEqualTo(2);
        assertThat(err.toString()).contains("status");
    }
}
