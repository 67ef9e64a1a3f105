package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rule syntax: what parses (in Claude Code's notation) and the messages for what does not. */
class PolicyRuleSyntaxTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Bash                               | Bash     |
            Bash(git push:*)                   | Bash     | git push:*
            Bash(npm test)                     | Bash     | npm test
            Bash(npm run test*)                | Bash     | npm run test*
            Bash(git commit -m "wip")          | Bash     | git commit -m "wip"
            '  Bash(ls *)  '                   | Bash     | ls *
            Read(./src/**)                     | Read     | ./src/**
            Edit(//etc/**)                     | Edit     | //etc/**
            Read(~/.ssh/**)                    | Read     | ~/.ssh/**
            Edit(/docs/**/*.md)                | Edit     | /docs/**/*.md
            Read(*.env)                        | Read     | *.env
            WebFetch(domain:example.com)       | WebFetch | domain:example.com
            WebFetch(domain:*.example.com)     | WebFetch | domain:*.example.com
            WebSearch                          | WebSearch |
            mcp__github                        | mcp__github |
            mcp__github__create_issue          | mcp__github__create_issue |
            Bash(*)                            | Bash     |
            """)
    void validRulesParse(String text, String tool, String specifier) throws RuleSyntaxException {
        Rule r = RuleParser.parse(text);
        assertThat(r.tool()).isEqualTo(tool);
        assertThat(r.specifier()).isEqualTo(specifier);
        assertThat(r.text()).isEqualTo(text.strip());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Bash(git push                   | missing ")" at the end
            Bash(git push) now              | text after the closing ")"
            Bash()                          | empty "()": write Bash alone
            bash(ls)                        | tool names are case-sensitive; did you mean "Bash"?
            webfetch                        | did you mean "WebFetch"?
            (ls)                            | no tool name before "("
            Frobnicate thing                | not a rule: write Tool or Tool(specifier)
            Bash(git:* push)                | `:*` only works at the end of a Bash rule
            Bash(:*)                        | `:*` needs a command before it
            Bash(git push:*:*)              | `:*` may appear only once
            Bash(npm * test:*)              | use either `:*` at the end or `*` wildcards, not both
            Bash(npm test && rm -rf /)      | a rule matches one simple command; `&&` in it would never match
            Bash(echo 'oops)                | unterminated single quote
            Read(.env:*)                    | `:*` is for Bash rules; a path rule takes a gitignore-style pattern
            Read(~bob/x)                    | only ~/ (your own home) is supported
            Edit(./a/../b)                  | `..` is only allowed at the start of a pattern
            Read(./[abc)                    | `[` without its `]`
            WebFetch(example.com)           | a WebFetch rule takes domain:HOST
            WebFetch(domain:https://x.com/) | is not a host name
            """)
    void invalidRulesSayWhatIsWrong(String text, String message) {
        assertThatThrownBy(() -> RuleParser.parse(text))
                .isInstanceOf(RuleSyntaxException.class)
                .hasMessageStartingWith("rule \"" + text.strip() + "\": ")
                .hasMessageContaining(message);
    }

    @Test
    void blankRuleIsRefused() {
        assertThatThrownBy(() -> RuleParser.parse("  "))
                .isInstanceOf(RuleSyntaxException.class)
                .hasMessage("empty rule");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Bash(ls *)            | ls             | true
            Bash(ls *)            | ls -la         | true
            Bash(ls *)            | lsof           | false
            Bash(ls*)             | lsof           | true
            Bash(git * main)      | git merge main | true
            Bash(git * main)      | git merge dev  | false
            Bash(npm run test:*)  | npm run test   | true
            Bash(npm run test:*)  | npm run testx  | false
            Bash(rm -rf:*)        | rm -fr a       | true
            Bash(rm -rf *)        | rm -r -f a     | true
            Bash(git commit -m "a b") | git commit -m 'a b' | true
            """)
    void bashPatternsMatchAsDocumented(String rule, String command, boolean matches) throws Exception {
        Rule r = RuleParser.parse(rule);
        Policy p = Policy.of(
                java.util.List.of(new PolicyRule(r, RuleList.ALLOW, "test")), Verdict.ASK, null, Path.of("/home/u"));
        Decision d = new PolicyEngine(p).decide(ToolRequest.bash(command, Path.of("/w")));
        assertThat(d.isAllowed()).as(d.reason()).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Read(*.env)          | /w/a/b/prod.env   | true
            Read(*.env)          | /w/prod.env.bak   | false
            Read(./.env)         | /w/.env           | true
            Read(./.env)         | /w/sub/.env       | false
            Read(./secrets)      | /w/secrets/k.pem  | true
            Read(/conf/*.yml)    | /repo/conf/a.yml  | true
            Read(/conf/*.yml)    | /w/conf/a.yml     | false
            Read(//etc/**)       | /etc/ssh/config   | true
            Read(~/.aws/**)      | /home/u/.aws/cred | true
            Read(src/**/*.ts)    | /w/src/a/b/c.ts   | true
            Read(src/**/*.ts)    | /w/src/c.ts       | true
            Read(src/**/*.ts)    | /w/lib/src/c.ts   | false
            Read(../shared/**)   | /shared/x         | true
            Read(./log[0-9].txt) | /w/log7.txt       | true
            """)
    void pathPatternsFollowGitignore(String rule, String file, boolean matches) throws Exception {
        Policy p = Policy.of(
                java.util.List.of(new PolicyRule(RuleParser.parse(rule), RuleList.DENY, "test")),
                Verdict.ASK,
                Path.of("/repo"),
                Path.of("/home/u"));
        Decision d = new PolicyEngine(p).decide(new ToolRequest("Read", file, Path.of("/w")));
        assertThat(d.verdict() == Verdict.DENY).as(d.reason()).isEqualTo(matches);
    }
}
