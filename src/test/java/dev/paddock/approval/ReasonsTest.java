package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Reasons#bounded}: long quoted commands shortened, the whole cut at 4096 characters, short ones kept. */
class ReasonsTest {
    @Test
    void aShortReasonIsKeptAsItIs() {
        String r = "`git status` matches the allow rule Bash(git status) in /p/.paddock/policy.json";

        assertThat(Reasons.bounded(r)).isSameAs(r);
        assertThat(Reasons.bounded(null)).isNull();
    }

    @Test
    void aLongQuotedCommandKeepsItsStartAndTheRuleAfterIt() {
        String command = "echo " + "a".repeat(10_000);

        String r = Reasons.bounded("`" + command + "` matches the allow rule Bash(echo:*)");

        assertThat(r)
                .isEqualTo(
                        "`" + command.substring(0, Reasons.QUOTE_MAX - 1) + "…` matches the allow rule Bash(echo:*)");
    }

    @Test
    void aReasonOfManyPartsIsCutAt4096CharactersAndSaysFromHowMany() {
        StringBuilder b = new StringBuilder("all 20000 parts are allowed: ");
        for (int i = 0; i < 20_000; i++) {
            b.append(i == 0 ? "" : "; ")
                    .append("`echo part-")
                    .append(i)
                    .append("` matches the allow rule Bash(echo:*)");
        }

        String r = Reasons.bounded(b.toString());

        assertThat(r)
                .hasSize(Reasons.MAX)
                .startsWith("all 20000 parts are allowed: `echo part-0` matches")
                .endsWith("… (shortened from " + b.length() + " characters)");
    }

    @Test
    void aBackquoteWithoutItsPairAndTextWithoutQuotesAreCutToo() {
        String unpaired = "`" + "x".repeat(9000);
        String plain = "y".repeat(9000);

        assertThat(Reasons.bounded(unpaired)).hasSize(Reasons.MAX).startsWith("`xxx");
        assertThat(Reasons.bounded(plain)).hasSize(Reasons.MAX).endsWith("(shortened from 9000 characters)");
        assertThat(Reasons.bounded("y".repeat(Reasons.MAX)))
                .hasSize(Reasons.MAX)
                .doesNotContain("shortened");
    }

    @Test
    void noCutSplitsACharacterOutsideTheBasicPlane() {
        String emoji = "\uD83D\uDE00"; // one character, two chars
        String command = "x".repeat(Reasons.QUOTE_MAX - 2) + emoji + "tail";

        String r = Reasons.bounded("`" + command + "` asks");

        assertThat(r).doesNotContain("\uD83D…").isEqualTo("`" + "x".repeat(Reasons.QUOTE_MAX - 2) + "…` asks");
    }
}
