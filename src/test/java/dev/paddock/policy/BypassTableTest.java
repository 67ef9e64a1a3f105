package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Commands that ran an attacker's program or reached a denied file past allow rules, each decided by the
 * engine and then run for real under {@code /bin/bash} in its own copy of {@link BypassFixture}, where the row's
 * effect is checked: the decision table documents what each command really does.
 *
 * <p>Two policies. {@code ISSUE}: allow {@code Bash(ls:*)}, {@code Bash(git status:*)}, {@code Bash(npm test)};
 * ask {@code Bash(git push:*)}; deny {@code Bash(rm -rf:*)}, {@code Read(./.env)}, {@code Edit(./.git/**)}.
 * {@code OPEN}: the same deny and ask rules under a bare {@code Bash} allow (every program allowed), so only the
 * analysis and the deny rules stand between the command and its effect. {@code WORK}: {@code OPEN} with reading
 * the worktree allowed ({@code Read(./**)}).
 */
class BypassTableTest {
    private static final String ISSUE = """
            {"permissions": {"allow": ["Bash(ls:*)", "Bash(git status:*)", "Bash(npm test)"],
                             "ask": ["Bash(git push:*)"],
                             "deny": ["Bash(rm -rf:*)", "Read(./.env)", "Edit(./.git/**)"]}}""";
    private static final String OPEN = """
            {"permissions": {"allow": ["Bash"], "ask": ["Bash(git push:*)"],
                             "deny": ["Bash(rm -rf:*)", "Read(./.env)", "Edit(./.git/**)"]}}""";
    /** OPEN, and reading the worktree allowed (as agents usually may). */
    private static final String WORK = """
            {"permissions": {"allow": ["Bash", "Read(./**)"], "ask": ["Bash(git push:*)"],
                             "deny": ["Bash(rm -rf:*)", "Read(./.env)", "Edit(./.git/**)"]}}""";

    private static final String RMRF = "Bash(rm -rf:*)";
    private static final String ENV = "Read(./.env)";
    private static final String GIT = "Edit(./.git/**)";
    /** In the rule column: no rule may decide. */
    private static final String NO_RULE = "-";

    @TempDir
    static Path tmp;

    private static BypassFixture fixture;
    /** The copy the read-only rows share. */
    private static Path shared;

    @BeforeAll
    static void buildFixture() throws Exception {
        Path check = Files.createDirectories(tmp.resolve("check/repo")).getParent();
        BypassFixture.Result bash = BypassFixture.bash(check, "echo \"${BASH_VERSINFO[0]}\"; command -v rsync");
        assertThat(bash.out().lines().findFirst().orElse(""))
                .as("the rows are run under bash 5 (%s)", bash)
                .matches("[5-9]|[1-9][0-9]+");
        assertThat(bash.out())
                .as("rsync is installed (.ci/run installs it): its rows run it")
                .contains("/rsync");
        fixture = BypassFixture.build(Files.createDirectories(tmp.resolve("fixture")));
        shared = fixture.copy(Files.createDirectories(tmp.resolve("shared"))).toRealPath();
    }

    /**
     * What running the command did, checked in the copy it ran in. Rows whose commands leave the copy as it
     * was, but for the marker (removed before each run), share one copy ({@code shared}); the others get their
     * own.
     */
    private record Effect(String description, BiPredicate<Path, BypassFixture.Result> holds, boolean shared) {
        Effect(String description, BiPredicate<Path, BypassFixture.Result> holds) {
            this(description, holds, false);
        }

        /** The same effect for a command that changes the copy otherwise (git config, a rebase...). */
        Effect fresh() {
            return new Effect(description, holds, false);
        }

        @Override
        public String toString() {
            return description;
        }
    }

    private static Effect marker() {
        return new Effect("runs the planted program (creates m)", (base, r) -> Files.exists(base.resolve("m")), true);
    }

    private static Effect deleted(String path) {
        return new Effect(
                "deletes " + path,
                (base, r) -> !Files.exists(base.resolve("repo").resolve(path)));
    }

    private static Effect written(String path) {
        return new Effect("writes " + path, (base, r) -> {
            Path p = base.resolve("repo").resolve(path.replace("*", ""));
            if (path.endsWith("*")) {
                try (Stream<Path> s = Files.list(p.getParent())) {
                    return s.anyMatch(f -> f.getFileName()
                            .toString()
                            .startsWith(p.getFileName().toString()));
                } catch (IOException e) {
                    return false;
                }
            }
            return Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        });
    }

    private static Effect contains(String path, String text) {
        return new Effect("puts `" + text + "` into " + path, (base, r) -> {
            try {
                return Files.readString(base.resolve("repo").resolve(path)).contains(text);
            } catch (IOException e) {
                return false;
            }
        });
    }

    private static Effect prints(String text) {
        return new Effect("prints `" + text + "`", (base, r) -> r.out().contains(text), true);
    }

    private static Effect printsSecret() {
        return prints("hunter2");
    }

    private static Effect complains(String text) {
        return new Effect("says `" + text + "`", (base, r) -> r.err().contains(text), true);
    }

    private static Arguments issue(Verdict v, String rule, String command, Effect effect) {
        return Arguments.of("issue", v, rule, command, effect);
    }

    private static Arguments open(Verdict v, String rule, String command, Effect effect) {
        return Arguments.of("open", v, rule, command, effect);
    }

    private static Arguments work(Verdict v, String rule, String command, Effect effect) {
        return Arguments.of("work", v, rule, command, effect);
    }

    static Stream<Arguments> table() {
        Verdict ask = Verdict.ASK;
        Verdict deny = Verdict.DENY;
        return Stream.of(
                // expansions that run code held in a quoted string: $_ re-evaluated
                issue(ask, NO_RULE, "ls 'a[$(touch ../m)]'; ls $((_))", marker()),
                issue(ask, NO_RULE, "ls 'a[$(touch ../m)]'; ls $[_]", marker()),
                issue(ask, NO_RULE, "ls 'a[$(touch ../m)]'; ls ${!_}", marker()),
                issue(ask, NO_RULE, "ls 'a[$(touch ../m)]'; ls ${y[_]}", marker()),
                issue(ask, NO_RULE, "ls '$(touch ../m)'; ls ${_@P}", marker()),
                issue(deny, RMRF, "ls '$(rm -rf build)'; ls ${_@P}", deleted("build")),
                issue(deny, RMRF, "ls \"\\$(rm -rf build)\"; ls ${_@P}", deleted("build")),
                // variables evaluated as arithmetic or re-expanded
                issue(ask, NO_RULE, "x='a[$(touch ../m)]'; ls $((x))", marker()),
                issue(ask, NO_RULE, "x='a[$(touch ../m)]'; ls ${y[x]}", marker()),
                issue(ask, NO_RULE, "y=1; x='a[$(touch ../m)]'; ls ${y:x}", marker()),
                issue(ask, NO_RULE, "x='$(touch ../m)'; ls ${x@P}", marker()),
                issue(ask, NO_RULE, "PS4='$(touch ../m)'; set -x; ls", marker()),
                open(ask, NO_RULE, "x='a[$(touch ../m)]'; [[ $x -eq 1 ]]", marker()),
                open(ask, NO_RULE, "[[ 'a[$(touch ../m)]' -eq 1 ]]", marker()),
                open(ask, NO_RULE, "x='a[$(touch ../m)]'; (( x ))", marker()),
                open(ask, NO_RULE, "x='a[$(touch ../m)]'; for ((i = x; i < 0; i++)); do :; done", marker()),
                open(ask, NO_RULE, "x='a[$(touch ../m)]'; y[x]=1", marker()),
                open(ask, NO_RULE, "x='a[$(touch ../m)]'; z=(1); z+=([x]=2)", marker()),
                // builtins that evaluate names, subscripts or word lists
                open(ask, NO_RULE, "declare 'a[$(touch ../m)]=1'", marker()),
                open(ask, NO_RULE, "typeset 'a[$(touch ../m)]=1'", marker()),
                open(ask, NO_RULE, "f() { local 'a[$(touch ../m)]=1'; }; f", marker()),
                open(ask, NO_RULE, "declare -i x='a[$(touch ../m)]'", marker()),
                open(ask, NO_RULE, "x='a[$(touch ../m)]'; declare -i y; y=x", marker()),
                open(ask, NO_RULE, "declare -n r='a[$(touch ../m)]'; echo $r", marker()),
                open(ask, NO_RULE, "let 'a[$(touch ../m)]'", marker()),
                open(ask, NO_RULE, "printf -v 'a[$(touch ../m)]' x", marker()),
                open(ask, NO_RULE, "read 'a[$(touch ../m)]' <<< x", marker()),
                open(ask, NO_RULE, "a=(1 2); unset 'a[$(touch ../m)]'", marker()),
                open(ask, NO_RULE, "test -v 'a[$(touch ../m)]'", marker()),
                open(ask, NO_RULE, "[ -v 'a[$(touch ../m)]' ]", marker()),
                open(ask, NO_RULE, "[[ -v 'a[$(touch ../m)]' ]]", marker()),
                open(ask, NO_RULE, "compgen -W '$(touch ../m)' x", marker()),
                open(ask, NO_RULE, "mapfile -C 'touch ../m #' -c 1 <<< x", marker()),
                open(ask, NO_RULE, "shopt -s expand_aliases\nalias ls='touch ../m'\nls", marker()),
                open(ask, NO_RULE, "hash -p /usr/bin/touch ls; ls ../m", marker()),
                open(ask, NO_RULE, "bash -ic 'history -s \"touch ../m\"; fc -s'", marker()),
                open(ask, NO_RULE, "set -k; git status HOME=../evil", marker()),
                // substitutions hidden in expansions, subscripts and array assignments are judged
                issue(deny, RMRF, "ls ${x:-$(rm -rf build)}", deleted("build")),
                issue(deny, RMRF, "x=1; ls ${x/$(rm -rf build)/}", deleted("build")),
                issue(deny, RMRF, "ls \"${x:-'$(rm -rf build)'}\"", deleted("build")),
                issue(deny, RMRF, "ls $(( 1 + $(rm -rf build) ))", deleted("build")),
                issue(deny, RMRF, "a[$(rm -rf build)]=1", deleted("build")),
                issue(deny, RMRF, "arr=([$(rm -rf build)]=1)", deleted("build")),
                open(deny, RMRF, "declare 'a[$(rm -rf build)]=1'", deleted("build")),
                // environment that makes an allowed program load the agent's code
                issue(ask, NO_RULE, "HOME=../evil git status", marker()),
                issue(ask, NO_RULE, "XDG_CONFIG_HOME=../evil git status", marker()),
                issue(ask, NO_RULE, "GIT_CONFIG_GLOBAL=../evil/.gitconfig git status", marker()),
                issue(ask, NO_RULE, "GIT_DIR=../other/.git git status", marker()),
                issue(
                        ask,
                        NO_RULE,
                        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor"
                                + " GIT_CONFIG_VALUE_0='touch ../m; false' git status",
                        marker()),
                issue(
                        ask,
                        NO_RULE,
                        "GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='touch ../m; false'\" git status",
                        marker()),
                issue(ask, NO_RULE, "env HOME=../evil git status", marker()),
                issue(ask, NO_RULE, "export HOME=../evil; git status", marker()),
                issue(ask, NO_RULE, "HOME=../evil; git status", marker()),
                issue(ask, NO_RULE, "declare -x GIT_DIR=../other/.git; git status", marker()),
                issue(ask, NO_RULE, "npm_config_script_shell=../evilsh npm test", marker()),
                issue(ask, NO_RULE, "NPM_CONFIG_SCRIPT_SHELL=../evilsh npm test", marker()),
                issue(ask, NO_RULE, "NODE_OPTIONS='--require %BASE%/np/x.js' npm test", marker()),
                issue(ask, NO_RULE, "PATH=../evilbin:$PATH ls", marker()),
                issue(ask, NO_RULE, "BASH_ENV=../rc bash -c ls", marker()),
                issue(ask, NO_RULE, "ENV=../rc sh -i -c ls", marker()),
                issue(ask, NO_RULE, "HOME=../evil bash -lc ls", marker()),
                issue(ask, NO_RULE, "HOME=../evil bash -ic ls", marker()),
                open(
                        ask,
                        NO_RULE,
                        "GIT_SSH_COMMAND='touch ../m; false' git ls-remote ssh://example.invalid/r",
                        marker()),
                open(ask, NO_RULE, "GIT_EXTERNAL_DIFF='touch ../m; :' git diff HEAD~1", marker()),
                // variables set otherwise than by NAME=value are judged as assignments
                open(ask, NO_RULE, "for HOME in ../evil; do git status; done", marker()),
                open(ask, NO_RULE, "select HOME in ../evil; do git status; break; done <<< 1", marker()),
                open(ask, NO_RULE, "read HOME <<< ../evil; git status", marker()),
                open(ask, NO_RULE, "read -rdx HOME <<< ../evilx; git status", marker()),
                open(ask, NO_RULE, "printf -v HOME ../evil; git status", marker()),
                open(ask, NO_RULE, "mapfile -t PS4 <<< '$(touch ../m)'; set -x; ls", marker()),
                open(ask, NO_RULE, "readarray -td, PS4 <<< '$(touch ../m),'; set -x; ls", marker()),
                open(ask, NO_RULE, "cp -r ../evil e; getopts e HOME -e; git status", marker().fresh()),
                open(ask, NO_RULE, "cp -r ../evil 10; exec {HOME}>/dev/null; git status", marker().fresh()),
                open(
                        ask,
                        NO_RULE,
                        ": ${CDPATH:=.git}; cd hooks && cp ../../../evilsh pre-commit",
                        written(".git/hooks/pre-commit")),
                open(
                        ask,
                        NO_RULE,
                        "unset CDPATH; echo ${CDPATH=.git} && cd hooks && cp ../../../evilsh pre-commit",
                        written(".git/hooks/pre-commit")),
                open(ask, NO_RULE, "cd ../evilbin && unset PATH && ls", marker()),
                // TZ names a zone of the system's; a path is a file of the agent's
                issue(ask, NO_RULE, "TZ=%BASE%/zone ls -l --time-style=+%Z package.json", prints("XYZ")),
                issue(ask, NO_RULE, "TZ=:%BASE%/zone ls -l --time-style=+%Z package.json", prints("XYZ")),
                open(ask, NO_RULE, "export TZ=%BASE%/zone; ls -l --time-style=+%Z package.json", prints("XYZ")),
                // options that make an allowed program load the agent's code
                issue(ask, NO_RULE, "git -C ../other status", marker()),
                issue(ask, NO_RULE, "git --git-dir=../other/.git status", marker()),
                issue(ask, NO_RULE, "git --git-dir=../other/.git --work-tree=../other status", marker()),
                issue(ask, NO_RULE, "env -C ../other git status", marker()),
                issue(ask, NO_RULE, "env --chd=../other git status", marker()),
                issue(ask, NO_RULE, "git -c include.path=%BASE%/evil/.gitconfig status", marker()),
                issue(ask, NO_RULE, "git -c includeIf.gitdir:/.path=%BASE%/evil/.gitconfig status", marker()),
                issue(ask, NO_RULE, "git -c core.fsmonitor='touch ../m; false' status", marker()),
                issue(ask, NO_RULE, "git -c alias.st='!touch ../m' st", marker()),
                issue(ask, NO_RULE, "bash --rcfile ../rc -ic ls", marker()),
                issue(ask, NO_RULE, "bash --init-file ../rc -ic ls", marker()),
                issue(ask, NO_RULE, "bash -O expand_aliases -c $'alias ls=\"touch ../m\"\\nls'", marker()),
                issue(ask, NO_RULE, "npm --prefix ../np test", marker()),
                open(ask, NO_RULE, "git --exec-path=../xp ls-remote https://example.invalid/r", marker()),
                open(ask, NO_RULE, "git grep -O'touch ../m; :' -e scripts", marker()),
                open(ask, NO_RULE, "git rebase -x 'touch ../m' HEAD~1", marker().fresh()),
                open(ask, NO_RULE, "git ls-remote --upload-pack='touch ../m; :' ../other", marker()),
                open(ask, NO_RULE, "git fetch --upload-pack='touch ../m; :' ../other", marker().fresh()),
                open(
                        ask,
                        NO_RULE,
                        "git -c core.sshCommand='touch ../m; false' ls-remote ssh://example.invalid/r",
                        marker()),
                open(ask, NO_RULE, "make -f ../evil.mk test", marker()),
                open(ask, NO_RULE, "make test SHELL=../evilsh", marker()),
                open(ask, NO_RULE, "python3 -c 'open(\"../m\", \"w\")'", marker()),
                open(ask, NO_RULE, "node -e 'require(\"fs\").writeFileSync(\"../m\", \"\")'", marker()),
                open(
                        ask,
                        NO_RULE,
                        "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='touch ../m' package.json",
                        marker()),
                // where git runs: a repository placed there is loaded
                open(ask, NO_RULE, "cd nested && git status", marker()),
                open(ask, NO_RULE, "cd ../other && git status", marker()),
                // the program is not the one the rule names
                issue(ask, NO_RULE, "%BASE%/evilbin/ls", marker()),
                issue(ask, NO_RULE, "t='1 env HOME=../evil'; timeout $t git status", marker()),
                issue(ask, NO_RULE, "o=--git-dir=../other/.git; git $o status", marker()),
                // writes into .git by other programs
                issue(
                        deny,
                        GIT,
                        "GIT_TRACE=%BASE%/repo/.git/hooks/pre-commit git status",
                        written(".git/hooks/pre-commit")),
                issue(deny, GIT, "GIT_TRACE=.git/hooks/pre-commit git status", complains("unknown trace value")),
                issue(
                        deny,
                        GIT,
                        "GIT_TRACE_SETUP=%BASE%/repo/.git/hooks/post-x git status",
                        written(".git/hooks/post-x")),
                issue(deny, GIT, "LD_DEBUG=libs LD_DEBUG_OUTPUT=.git/hooks/x ls", written(".git/hooks/x.*")),
                issue(deny, GIT, "cp -t .git/hooks ../evilsh", written(".git/hooks/evilsh")),
                issue(deny, GIT, "cp --target-directory=.git/hooks ../evilsh", written(".git/hooks/evilsh")),
                issue(deny, GIT, "mv ../evilsh .git/", written(".git/evilsh")),
                issue(deny, GIT, "cp ../evilsh .git", written(".git/evilsh")),
                issue(deny, GIT, "dd if=../evilsh of=.git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "tee .git/hooks/pre-commit < ../evilsh", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "install ../evilsh .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "ln -s ../../../evilsh .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "sed -i '1i # pwned' .git/config", contains(".git/config", "pwned")),
                issue(deny, GIT, "sed -n 'w .git/hooks/pre-commit' ../evilsh", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "git config core.fsmonitor 'touch ../m; false' && git status", marker().fresh()),
                issue(deny, GIT, "git log -1 --output=.git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "git diff HEAD~1 --output=.git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "sort -o .git/hooks/pre-commit ../evilsh", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "uniq ../evilsh .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "tar -cf .git/hooks/pre-commit package.json", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "tar -xf ../hooks.tar .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(ask, NO_RULE, "tar -xf ../hooks.tar", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "find . -maxdepth 0 -fprint .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "git status > .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "ls &> .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "cd .git/hooks && tee pre-commit < ../../../evilsh", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "(cd .git/hooks; cp ../../../evilsh pre-commit)", written(".git/hooks/pre-commit")),
                issue(deny, GIT, "env -C .git/hooks tee pre-commit < ../evilsh", written(".git/hooks/pre-commit")),
                open(deny, GIT, "cd /nonexistent-dir; rm -r .git", deleted(".git")),
                open(ask, NO_RULE, "find . -delete", deleted(".git")),
                open(
                        ask,
                        NO_RULE,
                        "printf '[core]\\n\\tfsmonitor = x\\n' >> nested/.git/config",
                        contains("nested/.git/config", "fsmonitor = x")),
                // rsync copies like cp, and runs the programs -e and --rsync-path name
                open(deny, GIT, "rsync ../evilsh .git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                open(deny, GIT, "rsync -r ../xp/ .git/hooks/", written(".git/hooks/git-remote-https")),
                open(deny, GIT, "rsync -a ../evilsh g/hooks/pre-commit", written(".git/hooks/pre-commit")),
                open(
                        deny,
                        GIT,
                        "rsync --log-file=.git/hooks/pre-commit package.json copied.json",
                        written(".git/hooks/pre-commit")),
                open(deny, ENV, "rsync .env leak3 && tac leak3", printsSecret().fresh()),
                open(ask, NO_RULE, "rsync -e 'sh -c \"touch ../m; false\"' package.json h:x", marker()),
                // reads of the denied file by other programs
                issue(deny, ENV, "cat .env", printsSecret()),
                issue(deny, ENV, "tac .env", printsSecret()),
                issue(deny, ENV, "awk 1 .env", printsSecret()),
                issue(deny, ENV, "git show :.env", printsSecret()),
                issue(deny, ENV, "git show HEAD:.env", printsSecret()),
                issue(deny, ENV, "git cat-file -p :.env", printsSecret()),
                issue(deny, ENV, "git cat-file blob HEAD:.env", printsSecret()),
                issue(deny, ENV, "git log -p -- .env", printsSecret()),
                issue(deny, ENV, "git diff --no-index /dev/null .env", printsSecret()),
                issue(deny, ENV, "git blame .env", printsSecret()),
                issue(deny, ENV, "head -n 1 .env", printsSecret()),
                issue(deny, ENV, "tail .env", printsSecret()),
                issue(deny, ENV, "less .env", printsSecret()),
                issue(deny, ENV, "more .env", printsSecret()),
                issue(deny, ENV, "nl .env", printsSecret()),
                issue(deny, ENV, "od -c .env", prints("h   u   n")),
                issue(deny, ENV, "xxd .env", printsSecret()),
                issue(deny, ENV, "strings .env", printsSecret()),
                issue(deny, ENV, "base64 .env", prints("U0VDUkVUPWh1bnRlcjIK")),
                issue(deny, ENV, "sort .env", printsSecret()),
                issue(deny, ENV, "uniq .env", printsSecret()),
                issue(deny, ENV, "grep -e SECRET .env", printsSecret()),
                issue(deny, ENV, "cut -d= -f2 .env", printsSecret()),
                issue(deny, ENV, "sed -n p .env", printsSecret()),
                issue(deny, ENV, "diff .env /dev/null", printsSecret()),
                issue(deny, ENV, "cp .env leak1 && tac leak1", printsSecret()),
                issue(deny, ENV, "ln -sf .env leak2 && tac leak2", printsSecret()),
                issue(deny, ENV, "cat < .env", printsSecret()),
                issue(deny, ENV, "exec 3<.env; cat <&3", printsSecret()),
                issue(deny, ENV, "cat ./build/../.env", printsSecret()),
                issue(ask, NO_RULE, "cat .e*", printsSecret()),
                issue(ask, NO_RULE, "f=.env; cat $f", printsSecret()),
                issue(ask, NO_RULE, "cat \"$(echo .env)\"", printsSecret()),
                issue(ask, NO_RULE, "grep -r hunter .", printsSecret()),
                issue(ask, NO_RULE, "find . -name .env -exec cat {} +", printsSecret()),
                issue(ask, NO_RULE, "echo .env | xargs cat", printsSecret()),
                open(ask, NO_RULE, "git grep --no-index hunter", printsSecret()),
                open(ask, NO_RULE, "iconv -f utf-8 -t utf-8 .env", printsSecret()),
                open(ask, NO_RULE, "shuf -o .git/hooks/pre-commit ../evilsh", written(".git/hooks/pre-commit")),
                // other names of files: /proc/self/cwd, /proc/self/root, descriptors, symbolic links
                issue(deny, ENV, "cat /proc/self/cwd/.env", printsSecret()),
                issue(deny, ENV, "tac /proc/thread-self/cwd/.env", printsSecret()),
                issue(deny, ENV, "cat /proc/self/root%BASE%/repo/.env", printsSecret()),
                issue(deny, ENV, "cat < /proc/self/cwd/.env", printsSecret()),
                issue(deny, ENV, "cd build && tac /proc/self/cwd/../.env", printsSecret()),
                open(deny, GIT, "cp ../evilsh /proc/self/cwd/.git/hooks/pre-commit", written(".git/hooks/pre-commit")),
                open(
                        deny,
                        GIT,
                        "cp ../evilsh /proc/self/root%BASE%/repo/.git/hooks/pre-commit",
                        written(".git/hooks/pre-commit")),
                // globs and run-time names: judged by every file they could name, not by their letters
                open(deny, NO_RULE, "cp ../evilsh .cla?de/settings.json", contains(".claude/settings.json", "../m")),
                open(deny, NO_RULE, "cp ../evilsh .cl[a]ude/settings.json", contains(".claude/settings.json", "../m")),
                open(deny, NO_RULE, "cp ../evilsh .c*/settings.json", contains(".claude/settings.json", "../m")),
                open(deny, NO_RULE, "cp ../evilsh cf?/settings.json", contains(".claude/settings.json", "../m")),
                open(deny, NO_RULE, "cp ../evilsh **/settings.json", contains(".claude/settings.json", "../m")),
                open(
                        deny,
                        NO_RULE,
                        "shopt -s nocaseglob; cp ../evilsh .CLAUD?/settings.json",
                        contains(".claude/settings.json", "../m")),
                open(deny, NO_RULE, "rm -r .cl*", deleted(".claude")),
                open(
                        deny,
                        NO_RULE,
                        "shopt -s dotglob; rm -r *",
                        deleted(".claude")), // cfg, a link to .claude, matches *
                open(
                        ask,
                        NO_RULE,
                        "tee .cla{u,x}de/settings.json < ../evilsh",
                        contains(".claude/settings.json", "../m")),
                open(
                        ask,
                        NO_RULE,
                        "for d in .claude; do cp ../evilsh $d/settings.json; done",
                        contains(".claude/settings.json", "../m")),
                open(deny, NO_RULE, "cp ../evilsh ~/.pad*/api-token", contains("../home/.paddock/api-token", "../m")),
                open(ask, NO_RULE, "cat ../hom?/.paddock/api-token", prints(BypassFixture.TOKEN)),
                open(ask, NO_RULE, "cat ~/.pad?ock/api-token", prints(BypassFixture.TOKEN)),
                open(ask, NO_RULE, "shopt -s dotglob; cat ~/*/api-token", prints(BypassFixture.TOKEN)),
                open(ask, NO_RULE, "grep -r . ../hom?", prints(BypassFixture.TOKEN)),
                open(ask, NO_RULE, "for f in ~/.paddock/api-token; do cat $f; done", prints(BypassFixture.TOKEN)),
                open(ask, NO_RULE, "f=~/.paddock/api-token; cat $f", prints(BypassFixture.TOKEN)),
                // named classes, quotes and lookalikes inside brackets; extended globs
                open(
                        deny,
                        NO_RULE,
                        "cp ../evilsh .clau[[:alpha:]]e/settings.json",
                        contains(".claude/settings.json", "../m")),
                open(
                        deny,
                        NO_RULE,
                        "cp ../evilsh .cl[[=a=]]ude/settings.json",
                        contains(".claude/settings.json", "../m")),
                open(
                        deny,
                        NO_RULE,
                        "cp ../evilsh .cl[\"!\"a]ude/settings.json",
                        contains(".claude/settings.json", "../m")),
                open(
                        deny,
                        NO_RULE,
                        "cp ../evilsh .cl[a\"]\"x]ude/settings.json",
                        contains(".claude/settings.json", "../m")),
                open(
                        deny,
                        NO_RULE,
                        "cp ../evilsh .cl[a\uff3dx]ude/settings.json",
                        contains(".claude/settings.json", "../m")),
                open(ask, NO_RULE, "cat ~/.pad[[:alpha:]]ock/api-token", prints(BypassFixture.TOKEN)),
                open(
                        ask,
                        NO_RULE,
                        "shopt -s extglob\ncp ../evilsh .cla@(u)de/settings.json",
                        contains(".claude/settings.json", "../m")),
                // a link before `..`: the kernel follows it first (d -> build/inner)
                open(deny, NO_RULE, "cat d/../../../home/.paddock/api-token", prints(BypassFixture.TOKEN)),
                open(
                        deny,
                        NO_RULE,
                        "cp ../evilsh d/../../../home/.paddock/api-token",
                        contains("../home/.paddock/api-token", "../m")),
                open(deny, NO_RULE, "cd -P d/../../.. && cat home/.paddock/api-token", prints(BypassFixture.TOKEN)),
                open(ask, NO_RULE, "cat d/../../../home/.pad*/api-token", prints(BypassFixture.TOKEN)),
                // a link made, or a folder above the working directory moved, by the same command line
                open(
                        ask,
                        NO_RULE,
                        "mkdir -p a/b; ln -s a/b e; cat e/../../../home/.paddock/api-token",
                        prints(BypassFixture.TOKEN).fresh()), // it makes files
                open(
                        ask,
                        NO_RULE,
                        "mkdir -p a/b; ln -s a/b e; cd e; cat ../../../home/.paddock/api-token",
                        prints(BypassFixture.TOKEN).fresh()), // it makes files
                open(
                        ask,
                        NO_RULE,
                        "mkdir -p s/t; cd s/t; mv ../../s ../../../s2; cat ../../home/.paddock/api-token",
                        prints(BypassFixture.TOKEN).fresh()), // it makes files
                // programs that write files they do not name
                open(ask, NO_RULE, "git apply ../cfg.diff", contains(".claude/settings.json", "pwned")),
                open(
                        ask,
                        NO_RULE,
                        "cp -r ../paddock paddock && find paddock -maxdepth 0 -exec mv {} .{} \\;",
                        contains(".paddock/policy.json", "Bash")),
                issue(deny, NO_RULE, "cat /proc/self/root%BASE%/home/.paddock/api-token", prints(BypassFixture.TOKEN)),
                issue(deny, NO_RULE, "cat /proc/self/cwd/../home/.paddock/api-token", prints(BypassFixture.TOKEN)),
                work(
                        ask,
                        NO_RULE,
                        "exec 3<.git; cp ../evilsh /dev/fd/3/hooks/pre-commit",
                        written(".git/hooks/pre-commit")),
                work(ask, NO_RULE, "exec 3<build; cat /dev/fd/3/../.env", printsSecret()),
                work(ask, NO_RULE, "cat /proc/*/cwd/.env", printsSecret()),
                issue(deny, ENV, "cat notes", printsSecret()),
                open(deny, ENV, "tac g/../notes", printsSecret()),
                open(deny, GIT, "cp ../evilsh g/hooks/pre-commit", written(".git/hooks/pre-commit")),
                open(
                        deny,
                        ENV,
                        "ln -s ../.env build/x && tac build/x",
                        printsSecret().fresh()),
                open(
                        deny,
                        ENV,
                        "ln -st build ../.env && tac build/.env",
                        printsSecret().fresh()),
                // further cases from public reports on Claude Code and Codex permission checks (2025-2026).
                // A prefix rule matched the whole compound command:
                // https://github.com/anthropics/claude-code/issues/4956,
                // https://github.com/anthropics/claude-code/issues/28784,
                // https://github.com/anthropics/claude-code/issues/94314
                issue(deny, RMRF, "ls && rm -rf build", deleted("build")),
                issue(deny, RMRF, "cd build && rm -rf ../build", deleted("build")),
                issue(deny, RMRF, "ls; rm -rf build; echo done", deleted("build")),
                issue(deny, RMRF, "true; ".repeat(60) + "rm -rf build", deleted("build")),
                // bash -c around a write the direct form was stopped for:
                // https://github.com/anthropics/claude-code/issues/43085
                issue(deny, RMRF, "bash -c 'ls; rm -rf build'", deleted("build")),
                issue(deny, GIT, "bash -c 'echo x >> .git/hooks/pre-commit'", written(".git/hooks/pre-commit")),
                // an environment assignment in front of a denied command:
                // https://github.com/anthropics/claude-code/issues/31558
                issue(deny, RMRF, "FOO=1 rm -rf build", deleted("build")),
                issue(deny, RMRF, "LC_ALL=C rm -rf build", deleted("build")),
                // a brace group or a process substitution around a denied read:
                // https://github.com/anthropics/claude-code/issues/70369
                issue(deny, ENV, "{ cat .env; }", printsSecret()),
                issue(deny, ENV, "cat <(ls) .env", printsSecret()),
                // a wrapper outside a fixed unwrap list (more in the wrapper rows below):
                // https://github.com/anthropics/claude-code/issues/92542
                issue(deny, RMRF, "setsid rm -rf build", deleted("build")),
                issue(deny, RMRF, "ionice -c 3 rm -rf build", deleted("build")),
                // a program named like an allowed one but elsewhere:
                // https://github.com/openai/codex/issues/37078
                issue(ask, NO_RULE, "../evilbin/ls", marker()),
                issue(ask, NO_RULE, "cd ../evilbin && ./ls", marker()),
                // git's global options that move its configuration, repository or helpers (the -C, -c,
                // --git-dir and --exec-path rows above): https://github.com/openai/codex/pull/15796
                issue(ask, NO_RULE, "git --work-tree=. --git-dir=../other/.git status", marker()),
                // find's actions that write or run (the -delete, -fprint and -exec rows above and below):
                // https://github.com/openai/codex/pull/482; indirect reads of a denied file:
                // https://github.com/anthropics/claude-code/issues/6036
                open(ask, NO_RULE, "find . -name .env -execdir cat {} \\;", printsSecret()),
                issue(ask, NO_RULE, "sed -n '1e touch ../m' package.json", marker()),
                issue(ask, NO_RULE, "sed 's/.*/touch ..\\/m/e' package.json", marker()),
                issue(ask, NO_RULE, "awk 'BEGIN { system(\"touch ../m\") }'", marker()),
                issue(ask, NO_RULE, "awk 'BEGIN { print \"x\" > \"../m\" }'", marker()),
                issue(ask, NO_RULE, "echo x > ~/.bashrc", written("../home/.bashrc")),
                issue(ask, NO_RULE, "git difftool -y --extcmd='touch ../m' HEAD~1", marker()),
                issue(ask, NO_RULE, "find . -maxdepth 0 -exec sh -c 'touch ../m' \\;", marker()),
                issue(ask, NO_RULE, "ls\r -la", complains("command not found")),
                // evasions of the words themselves
                issue(ask, NO_RULE, "g''it -C ../other status", marker()),
                issue(ask, NO_RULE, "\\git -C ../other status", marker()),
                issue(ask, NO_RULE, "$'git' -C ../other status", marker()),
                issue(ask, NO_RULE, "git -C \\\n../other status", marker()),
                issue(ask, NO_RULE, "{git,-C,../other,status}", marker()),
                issue(deny, RMRF, "$'\\x72\\x6d' -rf build", deleted("build")),
                issue(deny, RMRF, "ls\t;\trm -rf build", deleted("build")),
                issue(deny, RMRF, "ls # comment\nrm -rf build", deleted("build")),
                issue(deny, RMRF, "case x in x) ls;& y) rm -rf build;; esac", deleted("build")),
                issue(deny, RMRF, "ls() { rm -rf build; }; ls", deleted("build")),
                issue(deny, RMRF, "command rm -rf build", deleted("build")),
                issue(deny, RMRF, "exec -a ls rm -rf build", deleted("build")),
                issue(deny, RMRF, "cat <(rm -rf build)", deleted("build")),
                issue(deny, RMRF, "coproc rm -rf build; wait", deleted("build")),
                issue(ask, NO_RULE, "bash <<< 'rm -rf build'", deleted("build")),
                issue(deny, RMRF, "trap 'rm -rf build' EXIT", deleted("build")),
                // programs that run their arguments as a command: modelled ones strip to the command inside
                open(deny, RMRF, "flock /tmp/paddock-bypass.lock rm -rf build", deleted("build")),
                open(deny, RMRF, "flock -w 5 /tmp/paddock-bypass.lock -c 'rm -rf build'", deleted("build")),
                open(deny, RMRF, "taskset 1 rm -rf build", deleted("build")),
                open(deny, RMRF, "taskset -c 0 rm -rf build", deleted("build")),
                open(deny, RMRF, "chrt -o 0 rm -rf build", deleted("build")),
                open(deny, RMRF, "prlimit --nofile=10 rm -rf build", deleted("build")),
                open(deny, RMRF, "setpriv --reuid=0 rm -rf build", deleted("build")),
                open(deny, RMRF, "unshare rm -rf build", deleted("build")),
                open(deny, RMRF, "script -qc 'rm -rf build' /dev/null", deleted("build")),
                open(deny, RMRF, "/usr/sbin/chroot --skip-chdir / rm -rf build", deleted("build")),
                open(deny, RMRF, "/usr/sbin/runuser -u root -- rm -rf build", deleted("build")),
                open(deny, RMRF, "su root -c 'rm -rf build'", deleted("build")),
                open(deny, RMRF, "sg root 'rm -rf build'", deleted("build")),
                open(deny, RMRF, "busybox rm -rf build", deleted("build")),
                open(deny, RMRF, "bwrap --dev-bind / / rm -rf build", deleted("build")),
                open(deny, RMRF, "ld.so /bin/rm -rf build", deleted("build")),
                open(deny, RMRF, "linux64 rm -rf build", deleted("build")),
                open(deny, RMRF, "nsenter -- rm -rf build", deleted("build")),
                open(deny, RMRF, "timeout --sig KILL 5 rm -rf build", deleted("build")),
                open(deny, RMRF, "nice --adj 5 rm -rf build", deleted("build")),
                issue(deny, RMRF, "flock /tmp/paddock-bypass.lock rm -rf build", deleted("build")),
                // ... and any other program: a suffix a deny or ask rule matches makes it asked
                open(ask, NO_RULE, "../runner rm -rf build", deleted("build")),
                open(ask, NO_RULE, "../runner sh -c 'ls; rm -rf build'", deleted("build")),
                open(ask, NO_RULE, "../runner env -i /bin/rm -rf build", deleted("build")),
                open(ask, NO_RULE, "/usr/sbin/logsave /dev/null rm -rf build", deleted("build")),
                // trap's options: -- ends them, the action after it is judged
                issue(deny, RMRF, "trap -- 'rm -rf build' EXIT; ls", deleted("build")),
                open(deny, RMRF, "trap -- 'rm -rf build' EXIT INT; ls", deleted("build")),
                open(deny, RMRF, "trap -p; trap -- 'ls; rm -rf build' EXIT", deleted("build")));
    }

    /** The engine of {@code policyName} for the copy at {@code base} (kept for the shared copy). */
    private static PolicyEngine engine(String policyName, Path base) throws IOException {
        String key = policyName + " " + base;
        PolicyEngine e = ENGINES.get(key);
        if (e == null) {
            Path file = PolicyFile.globalFile(Files.createDirectories(base.resolve("paddock-" + policyName)));
            Files.writeString(
                    file,
                    switch (policyName) {
                        case "issue" -> ISSUE;
                        case "work" -> WORK;
                        default -> OPEN;
                    });
            Policy policy = PolicyFile.load(List.of(file), base.resolve("repo"), base.resolve("home"));
            assertThat(policy.broken()).isNull();
            e = new PolicyEngine(policy);
            if (base.equals(shared)) {
                ENGINES.put(key, e);
            }
        }
        return e;
    }

    private static final java.util.Map<String, PolicyEngine> ENGINES = new java.util.HashMap<>();

    @ParameterizedTest(name = "{0}: {3} -> {1} ({4})")
    @MethodSource("table")
    void decidesAndBashShowsTheEffect(
            String policyName, Verdict expected, String rule, String command, Effect effect, @TempDir Path dir)
            throws Exception {
        Path base = effect.shared() ? shared : fixture.copy(dir).toRealPath();
        Files.deleteIfExists(base.resolve("m"));
        String cmd = command.replace("%BASE%", base.toString());

        Decision d = engine(policyName, base).decide(ToolRequest.bash(cmd, base.resolve("repo")));
        BypassFixture.Result run = BypassFixture.bash(base, cmd);

        assertThat(effect.holds().test(base, run))
                .as("under bash, `%s` %s (exit %d, out %s, err %s)", cmd, effect, run.exit(), run.out(), run.err())
                .isTrue();
        assertThat(d.verdict()).as(d.reason()).isEqualTo(expected);
        if (NO_RULE.equals(rule)) {
            assertThat(d.rule()).as(d.reason()).isNull();
        } else {
            assertThat(d.rule()).as(d.reason()).isNotNull();
            assertThat(d.rule().text()).as(d.reason()).isEqualTo(rule);
        }
    }
}
