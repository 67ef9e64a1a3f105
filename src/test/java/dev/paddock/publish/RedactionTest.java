package dev.paddock.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactionTest {
    @Test
    void theUserInformationOfEveryUrlIsTakenOut() {
        assertThat(Redaction.redact("fatal: unable to access 'https://bob:hunter2@github.com/o/r.git/': 403"))
                .isEqualTo("fatal: unable to access 'https://***@github.com/o/r.git/': 403");
        assertThat(Redaction.redact("https://ghp_abc123@github.com/o/r and ssh://git:pw@host:22/r"))
                .isEqualTo("https://***@github.com/o/r and ssh://***@host:22/r");
    }

    @Test
    void urlsWithoutCredentialsAndScpLikeAddressesStayAsTheyAre() {
        assertThat(Redaction.redact("git@github.com:o/r.git")).isEqualTo("git@github.com:o/r.git");
        assertThat(Redaction.redact("https://github.com/o/r@v1")).isEqualTo("https://github.com/o/r@v1");
        assertThat(Redaction.redact(null)).isNull();
    }
}
