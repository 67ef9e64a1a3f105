package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad usage exits with 2, as the README says, whatever the command: an option value outside its choices or its
 * range is refused by the command line itself, before anything is asked of a running Paddock (none runs here), in
 * one line that names the option, what it got and what it takes, in the option's own unit.
 */
class BadOptionValueTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "sandbox new --task t --cmd true --tier vm            | --tier     | vm    | worktree, namespace, container",
                "sandbox new --task t --cmd true --lease-minutes 0    | --lease-minutes | 0 | 1 to 1440",
                "sandbox new --task t --cmd true --lease-minutes 1441 | --lease-minutes | 1441 | 1 to 1440",
                "sandbox new --task t --cmd true --retries -1         | --retries  | -1    | 0 to 100",
                "sandbox new --task t --agents claude:0               | --agents   | claude:0 | from 1 to 20",
                "sandbox new --task t --agents claude:21,codex:1      | --agents   | claude:21 | from 1 to 20",
                "sandbox new --task t --agents cursor:2               | --agents   | cursor | claude, codex, gemini, aider, custom",
                "sandbox flags cursor                                 | AGENT      | cursor | claude, codex, gemini, aider, custom",
                "merge config --strategy squash                       | --strategy | squash | merge, rebase",
                "merge config --auto-resolve always                   | --auto-resolve | always | propose, apply",
                "policy check --unmatched allow -- ls                 | --unmatched | allow | ask, deny",
            })
    void aBadOptionValueExits2AndSaysWhatTheOptionTakes(String command, String option, String value, String takes) {
        List<String> args =
                new ArrayList<>(List.of("--home", tmp.resolve("home").toString()));
        args.addAll(List.of(command.split(" +")));

        StatusCommandTest.Run r = paddock(args.toArray(String[]::new));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        // The line naming the option (this runs in the test JVM: another test's background thread may log too).
        String line =
                r.err().lines().filter(l -> l.contains(option)).findFirst().orElse(r.err());
        assertThat(line).contains(option).contains(value).contains(takes).doesNotContain(" ms");
    }
}
