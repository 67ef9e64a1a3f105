package dev.paddock.policy;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one list of what makes an allowed program load code, configuration or a program the agent controls,
 * each entry with its reason. Such a command is never allowed automatically, whatever the allow rule says:
 * it is asked, or denied where a deny rule matches a file it names.
 *
 * <p><b>Environment.</b> An assignment that reaches a program's environment ({@code VAR=x cmd},
 * {@code env VAR=x cmd}, {@code export VAR=x}, {@code declare -x}) is allowed only for the
 * {@link EnvEffect#HARMLESS} variables below, and only with a plain value (no file path, no expansion); any
 * other variable makes the command asked, with the entry's reason when it has one. A plain assignment in the
 * script ({@code VAR=x; cmd}) is asked for the listed variables and for any name in upper case (the
 * convention for environment variables: one already exported, as {@code HOME} and {@code PATH} are, passes the
 * new value to every later command); a lower-case name is taken as the script's own variable. Variables that
 * name a file a program writes ({@code GIT_TRACE}...) are also judged as an Edit of that file.
 *
 * <p><b>Options.</b> {@link #OPTIONS} lists, per program, the options that change which configuration,
 * directory, repository, interpreter, library or shell it loads, or that run another program. The table is
 * read by {@link LoadingCheck}, which also knows each program's option syntax.
 */
final class LoadingOptions {
    private LoadingOptions() {}

    /** What an environment variable does. */
    enum EnvEffect {
        /** Known harmless with a plain value: allowed. */
        HARMLESS,
        /** Changes what a program loads or runs: asked. */
        LOADS,
        /** Names a file a program writes: asked, and judged as an Edit of its value. */
        WRITES_FILE
    }

    /**
     * An environment variable, or a family of them.
     *
     * @param name the name, or its prefix when {@code prefix}
     * @param ignoreCase whether the name matches in any case ({@code npm} reads {@code NPM_CONFIG_X} and
     *     {@code npm_config_x} alike)
     * @param value for harmless variables, the values that are harmless; else null
     * @param example a name of the family, for tests and messages
     */
    record Variable(
            String name,
            boolean prefix,
            boolean ignoreCase,
            EnvEffect effect,
            Pattern value,
            String reason,
            String example) {
        boolean matches(String n) {
            String a = ignoreCase ? n.toLowerCase(Locale.ROOT) : n;
            String b = ignoreCase ? name.toLowerCase(Locale.ROOT) : name;
            return prefix ? a.startsWith(b) : a.equals(b);
        }
    }

    private static final Pattern LOCALE = Pattern.compile("[A-Za-z0-9_.@+-]*");
    /** A zone name ({@code Europe/Paris}, {@code :UTC}) under the system's zone directory: no leading / or dot. */
    private static final Pattern ZONE = Pattern.compile(":?([A-Za-z0-9_+-][A-Za-z0-9_+:/-]*)?");

    private static final Pattern FLAG = Pattern.compile("[A-Za-z0-9_-]*");
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,6}");

    private static Variable harmless(String name, boolean prefix, Pattern value, String reason) {
        return new Variable(name, prefix, false, EnvEffect.HARMLESS, value, reason, prefix ? name + "ALL" : name);
    }

    private static Variable loads(String name, String reason) {
        boolean prefix = name.endsWith("*");
        String n = prefix ? name.substring(0, name.length() - 1) : name;
        return new Variable(n, prefix, false, EnvEffect.LOADS, null, reason, prefix ? n + "X" : n);
    }

    private static Variable anyCase(String name, String reason) {
        boolean prefix = name.endsWith("*");
        String n = prefix ? name.substring(0, name.length() - 1) : name;
        return new Variable(n, prefix, true, EnvEffect.LOADS, null, reason, prefix ? n + "script_shell" : n);
    }

    private static Variable writes(String name, String reason) {
        boolean prefix = name.endsWith("*");
        String n = prefix ? name.substring(0, name.length() - 1) : name;
        return new Variable(n, prefix, false, EnvEffect.WRITES_FILE, null, reason, prefix ? n + "_PACKET" : n);
    }

    /**
     * Environment variables, first match wins (so the harmless {@code PYTHONUNBUFFERED} comes before the
     * {@code PYTHON*} family, and the file-writing {@code GIT_TRACE*} before {@code GIT_*}).
     */
    // spotless:off  The table's layout (one entry, with its reason, per line) is its meaning.
    static final List<Variable> VARIABLES = List.of(
            harmless("LANG", false, LOCALE, "chooses the locale (messages, sorting) among the system's installed"
                    + " ones by name; a name with a / is not harmless"),
            harmless("LANGUAGE", false, Pattern.compile("[A-Za-z0-9_.@:+-]*"), "the order of message languages,"
                    + " by name"),
            harmless("LC_", true, LOCALE, "one category of the locale, by name (LC_ALL, LC_CTYPE...)"),
            harmless("TZ", false, ZONE, "the time zone by name (Europe/Paris) or offset; the zone data is the"
                    + " system's, and a path (a leading /) or a value with a dot (a file of the agent's) is not"
                    + " harmless"),
            harmless("NO_COLOR", false, FLAG, "turns colour output off"),
            harmless("FORCE_COLOR", false, FLAG, "turns colour output on"),
            harmless("CLICOLOR", false, FLAG, "turns colour output on (BSD tools)"),
            harmless("CLICOLOR_FORCE", false, FLAG, "forces colour output (BSD tools)"),
            harmless("COLORTERM", false, FLAG, "says the terminal shows true colour"),
            harmless("TERM", false, Pattern.compile("[A-Za-z0-9._+-]*"), "the terminal type, by name (the"
                    + " terminfo entry is the system's; TERMINFO, which names a directory, is not harmless)"),
            harmless("COLUMNS", false, NUMBER, "the terminal width"),
            harmless("LINES", false, NUMBER, "the terminal height"),
            harmless("CI", false, FLAG, "tells tools they run unattended (no prompts, no spinners)"),
            harmless("PYTHONUNBUFFERED", false, FLAG, "unbuffered output; loads nothing"),
            harmless("PYTHONDONTWRITEBYTECODE", false, FLAG, "no .pyc files written; loads nothing"),
            writes("GIT_TRACE*", "git appends its trace to the file this names (GIT_TRACE, GIT_TRACE_PACKET,"
                    + " GIT_TRACE2_EVENT...): a write to any file, .git/hooks included"),
            loads("GIT_*", "git's environment names its repository and work tree (GIT_DIR, GIT_WORK_TREE), its"
                    + " configuration (GIT_CONFIG_GLOBAL, GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS: core.fsmonitor"
                    + " and alias.* run programs) and programs it runs (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF,"
                    + " GIT_PAGER, GIT_EDITOR, GIT_ASKPASS, GIT_EXEC_PATH)"),
            loads("HOME", "programs read their configuration from the home directory (~/.gitconfig, ~/.bashrc,"
                    + " ~/.profile, ~/.npmrc): another home is the agent's configuration"),
            loads("XDG_*", "configuration and data directories (git reads $XDG_CONFIG_HOME/git/config)"),
            writes("LD_DEBUG_OUTPUT", "the dynamic loader writes its debug output to this file (with the process"
                    + " id appended)"),
            loads("LD_*", "the dynamic loader loads the libraries these name into every program (LD_PRELOAD,"
                    + " LD_LIBRARY_PATH, LD_AUDIT)"),
            loads("DYLD_*", "the macOS dynamic loader's LD_ variables (DYLD_INSERT_LIBRARIES)"),
            loads("GCONV_PATH", "glibc loads character-set converters (shared libraries) from this directory"),
            loads("GLIBC_TUNABLES", "changes the C library's behaviour in every program (and has had loader"
                    + " bugs)"),
            loads("LOCPATH", "glibc reads locale data from this directory instead of the system's"),
            writes("MALLOC_TRACE", "glibc writes a trace of allocations to this file"),
            loads("PATH", "decides which program each name runs"),
            loads("PAGER", "the program git, man and others start to show output"),
            loads("MANPAGER", "the program man starts to show a page"),
            loads("EDITOR", "the program git and others start to edit text"),
            loads("VISUAL", "the program git and others start to edit text"),
            loads("BROWSER", "the program started to open a URL"),
            loads("SHELL", "the shell programs start for commands (make, npm's fallback, editors)"),
            anyCase("npm_config_*", "npm configuration, read in any case (script-shell, node-options, userconfig,"
                    + " prefix, registry: which shell runs the scripts, which files and packages load)"),
            loads("NODE_OPTIONS", "options for every node process, --require and --import included"),
            loads("NODE_PATH", "where node looks for modules"),
            writes("NODE_REPL_HISTORY", "node's REPL writes its history to this file"),
            loads("PYTHON*", "Python's start-up: PYTHONPATH, PYTHONHOME and PYTHONUSERBASE choose the modules,"
                    + " PYTHONSTARTUP runs a file, PYTHONPYCACHEPREFIX writes caches there"),
            loads("PERL*", "Perl's start-up: PERL5OPT (options such as -M), PERL5LIB and PERLLIB (module"
                    + " paths), PERL5DB (the debugger)"),
            loads("RUBY*", "Ruby's start-up: RUBYOPT (-r), RUBYLIB"),
            loads("GEM_*", "where Ruby gems load from"),
            loads("BUNDLE_*", "Bundler configuration (BUNDLE_GEMFILE names another Gemfile)"),
            loads("JAVA_TOOL_OPTIONS", "options for every JVM, -javaagent included"),
            loads("_JAVA_OPTIONS", "options for every JVM, -javaagent included"),
            loads("JDK_JAVA_OPTIONS", "options for the java launcher, -javaagent included"),
            loads("CLASSPATH", "where the JVM loads classes from"),
            loads("MAVEN_OPTS", "JVM options for Maven"),
            loads("GRADLE_OPTS", "JVM options for Gradle"),
            loads("BASH_ENV", "a file every non-interactive bash runs first"),
            loads("ENV", "a file an interactive sh (and bash in POSIX mode) runs first"),
            loads("ZDOTDIR", "the directory zsh reads its start-up files from (.zshenv is read by every zsh)"),
            loads("SHELLOPTS", "options every child bash starts with"),
            loads("BASHOPTS", "shopt options every child bash starts with (expand_aliases...)"),
            loads("BASH_LOADABLES_PATH", "where `enable -f` loads builtins (shared libraries) from"),
            loads("PROMPT_COMMAND", "bash runs it before each prompt"),
            loads("PS0", "prompt strings undergo command substitution"),
            loads("PS1", "prompt strings undergo command substitution"),
            loads("PS2", "prompt strings undergo command substitution"),
            loads("PS4", "bash expands it (command substitution included) before each command under set -x"),
            loads("IFS", "changes how bash splits words, which the analysis reads with the default"),
            loads("CDPATH", "makes cd go to another directory than the one named"),
            writes("HISTFILE", "bash writes its history to this file"),
            writes("LESSHISTFILE", "less writes its history to this file"),
            loads("LESSOPEN", "less runs this program on every file it shows"),
            loads("LESSCLOSE", "less runs this program after showing a file"),
            loads("LESSKEY*", "less reads key bindings (which may run commands) from this file"),
            loads("MAKEFLAGS", "options for every make (-f, -C, --eval)"),
            loads("MAKEFILES", "makefiles every make reads first"),
            loads("RIPGREP_CONFIG_PATH", "ripgrep reads options (--pre runs a program) from this file"),
            writes("SSLKEYLOGFILE", "TLS libraries write session keys to this file"),
            loads("TMPDIR", "where programs create temporary files (a directory of the agent's choosing)"),
            loads("TERMINFO*", "terminal descriptions from a directory of the agent's choosing"),
            anyCase("http_proxy", "sends the program's web traffic through a server the agent names"),
            anyCase("https_proxy", "sends the program's web traffic through a server the agent names"),
            anyCase("all_proxy", "sends the program's network traffic through a server the agent names"),
            anyCase("no_proxy", "changes which hosts bypass the proxy"),
            loads("SSH_AUTH_SOCK", "which SSH agent signs for ssh and git"),
            loads("SSH_ASKPASS", "the program ssh starts to ask for a password"),
            loads("SUDO_ASKPASS", "the program sudo starts to ask for a password"));
    // spotless:on

    /** How an option is written. */
    enum Style {
        /** An option without a value ({@code -i}, {@code --login}); short ones may be clustered. */
        FLAG,
        /** An option with a value: {@code -C dir}, {@code -Cdir}, {@code --chdir=dir}, {@code --chdir dir}. */
        VALUE,
        /** A word that is itself an operand ({@code git bisect run}, {@code git submodule foreach}). */
        OPERAND,
        /** An operand of the form {@code NAME=value} ({@code make SHELL=./x}). */
        ASSIGNMENT,
        /** Any word starting with the spelling ({@code less +!cmd}, {@code vim +cmd}). */
        PREFIX
    }

    /**
     * A risky option of a program.
     *
     * @param program the program (for git, {@code git} for global options and {@code git log} for a
     *     subcommand's; the shells share {@code bash}'s entries)
     * @param path when its value is a file the program reads or writes, which kind (judged as such); else null
     * @param example a command using it, for tests and documentation
     */
    record Option(String program, String spelling, Style style, PathAccess.Kind path, String reason, String example) {}

    private static Option opt(String program, String spelling, Style style, String reason, String example) {
        return new Option(program, spelling, style, null, reason, example);
    }

    private static Option reads(String program, String spelling, String reason, String example) {
        return new Option(program, spelling, Style.VALUE, PathAccess.Kind.READ, reason, example);
    }

    private static final Style F = Style.FLAG;
    private static final Style V = Style.VALUE;
    private static final String GIT_RUNS = "runs the program it names";
    private static final String NPM_CONFIG = "npm configuration: ";

    /** Options per program (see {@link LoadingCheck} for each program's syntax). */
    // spotless:off  As above: one option, its reason and an example per entry.
    static final List<Option> OPTIONS = List.of(
            opt("git", "-C", V, "git works in another directory: its repository, configuration and hooks",
                    "git -C /tmp/other status"),
            opt("git", "-c", V, "sets a configuration value: include.path, includeIf, core.fsmonitor, alias.*,"
                    + " core.sshCommand and many more load files or run programs (only user.name, user.email,"
                    + " color.*, core.quotePath and advice.* are known harmless)", "git -c core.fsmonitor=./x status"),
            opt("git", "--config-env", V, "sets a configuration value from an environment variable (as -c does)",
                    "git --config-env=core.pager=EVIL log"),
            opt("git", "--git-dir", V, "another repository, with its configuration and hooks",
                    "git --git-dir=/tmp/other/.git status"),
            opt("git", "--work-tree", V, "another work tree (core.fsmonitor and filters run there)",
                    "git --work-tree=/tmp/other status"),
            opt("git", "--exec-path", V, "where git finds its own programs (git-remote-https...), when given a"
                    + " directory", "git --exec-path=/tmp/x ls-remote https://example.com/r"),
            opt("git", "--super-prefix", V, "an internal option for submodules; not for agents",
                    "git --super-prefix=x/ status"),
            opt("git", "--bare", F, "git takes the current directory as a repository, reading ./config (a file"
                    + " the agent can write)", "git --bare log"),
            opt("git grep", "-O", Style.PREFIX, "opens the matching files in the pager it names: " + GIT_RUNS,
                    "git grep -O'sh -c id' -e x"),
            opt("git grep", "--open-files-in-pager", V, "opens the matching files in the pager it names: "
                    + GIT_RUNS, "git grep --open-files-in-pager=./x -e x"),
            opt("git rebase", "-x", V, "runs a command after each commit", "git rebase -x ./x HEAD~1"),
            opt("git rebase", "--exec", V, "runs a command after each commit", "git rebase --exec=./x HEAD~1"),
            opt("git bisect", "run", Style.OPERAND, "runs a command for each step", "git bisect run ./x"),
            opt("git submodule", "foreach", Style.OPERAND, "runs a command in each submodule",
                    "git submodule foreach ./x"),
            opt("git fetch", "--upload-pack", V, GIT_RUNS + " as the remote's upload-pack (locally, for a local"
                    + " remote)", "git fetch --upload-pack=./x ../other"),
            opt("git pull", "--upload-pack", V, GIT_RUNS + " as the remote's upload-pack",
                    "git pull --upload-pack=./x ../other"),
            opt("git ls-remote", "--upload-pack", V, GIT_RUNS + " as the remote's upload-pack",
                    "git ls-remote --upload-pack=./x ../other"),
            opt("git clone", "--upload-pack", V, GIT_RUNS + " as the remote's upload-pack",
                    "git clone --upload-pack=./x ../other dir"),
            opt("git clone", "-u", V, GIT_RUNS + " as the remote's upload-pack", "git clone -u ./x ../other dir"),
            opt("git clone", "--template", V, "copies hooks from the directory it names into the new repository"
                    + " (post-checkout runs at once)", "git clone --template=./t ../other dir"),
            opt("git clone", "-c", V, "sets configuration in the new repository, used while cloning",
                    "git clone -c core.hooksPath=./h ../other dir"),
            opt("git clone", "--config", V, "sets configuration in the new repository, used while cloning",
                    "git clone --config=core.hooksPath=./h ../other dir"),
            opt("git init", "--template", V, "copies hooks from the directory it names", "git init --template=./t d"),
            opt("git push", "--receive-pack", V, GIT_RUNS + " as the remote's receive-pack",
                    "git push --receive-pack=./x ../other"),
            opt("git push", "--exec", V, GIT_RUNS + " as the remote's receive-pack", "git push --exec=./x ../other"),
            opt("git archive", "--exec", V, GIT_RUNS + " as the remote's upload-archive",
                    "git archive --remote=../o --exec=./x HEAD"),
            opt("git difftool", "-x", V, "runs the command it names as the diff tool", "git difftool -x ./x"),
            opt("git difftool", "--extcmd", V, "runs the command it names as the diff tool",
                    "git difftool --extcmd=./x"),
            opt("git filter-branch", "--", Style.PREFIX, "its filters are commands it runs",
                    "git filter-branch --tree-filter ./x HEAD"),
            opt("git instaweb", "--httpd", V, "runs the web server it names", "git instaweb --httpd=./x"),
            opt("git instaweb", "--browser", V, "runs the browser it names", "git instaweb --browser=./x"),
            opt("git send-email", "--sendmail-cmd", V, "runs the mailer it names", "git send-email --sendmail-cmd=./x"),
            opt("git send-email", "--smtp-server", V, "a path here is a mailer program it runs",
                    "git send-email --smtp-server=./x"),
            opt("git send-email", "--to-cmd", V, "runs a command for recipients", "git send-email --to-cmd=./x"),
            opt("git send-email", "--cc-cmd", V, "runs a command for recipients", "git send-email --cc-cmd=./x"),
            opt("bash", "--rcfile", V, "an interactive shell runs this file first", "bash --rcfile f -ic ls"),
            opt("bash", "--init-file", V, "an interactive shell runs this file first", "bash --init-file f -ic ls"),
            opt("bash", "-i", F, "an interactive shell runs ~/.bashrc (or $ENV for sh) first", "bash -ic ls"),
            opt("bash", "-l", F, "a login shell runs ~/.bash_profile or ~/.profile first", "bash -lc ls"),
            opt("bash", "--login", F, "a login shell runs ~/.bash_profile or ~/.profile first",
                    "bash --login -c ls"),
            opt("bash", "--debugger", F, "runs the debugger's start-up file", "bash --debugger -c ls"),
            opt("bash", "-k", F, "every NAME=value word of a command becomes part of its environment",
                    "bash -kc 'git status GIT_DIR=x'"),
            opt("bash", "-a", F, "every assignment is exported to the commands after it", "bash -ac 'PS4=x; ls'"),
            opt("bash", "-o", V, "a shell option (only errexit, nounset, pipefail, xtrace and the like are known"
                    + " harmless)", "bash -o history -c ls"),
            opt("bash", "-O", V, "a shopt option (expand_aliases makes alias definitions run)",
                    "bash -O expand_aliases -c ls"),
            opt("env", "-C", V, "the command runs in another directory (its configuration, a repository there)",
                    "env -C /tmp/other git status"),
            opt("env", "--chdir", V, "the command runs in another directory", "env --chdir=/tmp/other git status"),
            opt("env", "-S", V, "splits a string into a command at run time", "env -S 'git status'"),
            opt("env", "--split-string", V, "splits a string into a command at run time",
                    "env --split-string='git status'"),
            opt("npm", "--script-shell", V, NPM_CONFIG + "the shell that runs package scripts",
                    "npm test --script-shell=./x"),
            opt("npm", "--shell", V, NPM_CONFIG + "the shell npm exec starts", "npm test --shell=./x"),
            opt("npm", "--node-options", V, NPM_CONFIG + "options for node (--require)",
                    "npm test --node-options=--require=./x"),
            opt("npm", "--userconfig", V, NPM_CONFIG + "reads another user .npmrc (script-shell...)",
                    "npm test --userconfig ./rc"),
            opt("npm", "--globalconfig", V, NPM_CONFIG + "reads another global npmrc", "npm test --globalconfig ./rc"),
            opt("npm", "--prefix", V, NPM_CONFIG + "runs another directory's package.json",
                    "npm --prefix /tmp/other test"),
            opt("npm", "-C", V, NPM_CONFIG + "runs another directory's package.json (--prefix)",
                    "npm -C /tmp/other test"),
            opt("npm", "--registry", V, NPM_CONFIG + "installs packages from a server the agent names",
                    "npm test --registry=http://x"),
            opt("npm", "--cache", V, NPM_CONFIG + "takes packages from a cache directory of the agent's",
                    "npm test --cache=./c"),
            opt("npm", "--git", V, NPM_CONFIG + "the git program npm runs", "npm test --git=./x"),
            opt("npm", "--editor", V, NPM_CONFIG + "the editor npm starts", "npm test --editor=./x"),
            opt("npm", "--browser", V, NPM_CONFIG + "the browser npm starts", "npm test --browser=./x"),
            opt("npm", "--viewer", V, NPM_CONFIG + "the program that shows help", "npm test --viewer=./x"),
            opt("npm", "--init-module", V, NPM_CONFIG + "a module npm init runs", "npm test --init-module=./x"),
            opt("npm", "--onload-script", V, NPM_CONFIG + "a module old npm versions load at start",
                    "npm test --onload-script=./x"),
            opt("npm", "--call", V, "npm exec runs this command", "npm exec --call=./x"),
            opt("npm", "-c", V, "npm exec runs this command", "npm exec -c ./x"),
            opt("npm", "--cafile", V, NPM_CONFIG + "trusts the certificates this file names",
                    "npm test --cafile=./ca"),
            opt("npm", "--proxy", V, NPM_CONFIG + "sends traffic through a server the agent names",
                    "npm test --proxy=http://x"),
            opt("npm", "--https-proxy", V, NPM_CONFIG + "sends traffic through a server the agent names",
                    "npm test --https-proxy=http://x"),
            opt("npm", "--global", F, NPM_CONFIG + "works on the global installation, outside the worktree",
                    "npm test --global"),
            opt("npm", "-g", F, NPM_CONFIG + "works on the global installation (--global)", "npm test -g"),
            opt("npm", "--location", V, NPM_CONFIG + "which installation and configuration npm uses",
                    "npm test --location=global"),
            opt("npx", "--package", V, "installs the package it names (from the registry) and runs its program",
                    "npx --package=x prettier"),
            opt("npx", "-p", V, "installs the package it names and runs its program", "npx -p x prettier"),
            opt("npx", "--call", V, "runs this command", "npx --call=./x"),
            opt("npx", "-c", V, "runs this command", "npx -c ./x"),
            opt("npx", "--userconfig", V, NPM_CONFIG + "reads another .npmrc", "npx --userconfig ./rc prettier"),
            opt("npx", "--registry", V, NPM_CONFIG + "packages from a server the agent names",
                    "npx --registry=http://x prettier"),
            opt("node", "-e", V, "runs the code given instead of a script", "node -e 'require(1)'"),
            opt("node", "--eval", V, "runs the code given", "node --eval=1"),
            opt("node", "-p", V, "runs the code given and prints it", "node -p 1"),
            opt("node", "--print", V, "runs the code given and prints it", "node --print=1"),
            opt("node", "-r", V, "loads this module first", "node -r ./x app.js"),
            opt("node", "--require", V, "loads this module first", "node --require=./x app.js"),
            opt("node", "--import", V, "loads this module first", "node --import=./x app.js"),
            opt("node", "--loader", V, "loads this module as the module loader", "node --loader=./x app.js"),
            opt("node", "--experimental-loader", V, "loads this module as the module loader",
                    "node --experimental-loader=./x app.js"),
            opt("node", "--env-file", V, "reads environment (NODE_OPTIONS included) from this file",
                    "node --env-file=./e app.js"),
            opt("node", "--openssl-config", V, "OpenSSL configuration, which can load engines (libraries)",
                    "node --openssl-config=./c app.js"),
            opt("node", "--snapshot-blob", V, "starts from this snapshot (code)", "node --snapshot-blob=./s app.js"),
            opt("node", "--inspect", Style.PREFIX, "opens a debugger port through which anyone local runs code",
                    "node --inspect app.js"),
            opt("python", "-c", V, "runs the code given instead of a script", "python3 -c 'import os'"),
            opt("python", "-W", V, "a warnings filter names a category class, which Python imports (from the"
                    + " current directory)", "python3 -W ignore::x.Y -m pytest"),
            opt("python", "-X", V, "implementation options (pycache_prefix writes caches, presite imports)",
                    "python3 -X pycache_prefix=.git/x -m pytest"),
            opt("perl", "-e", V, "runs the code given", "perl -e 1"),
            opt("perl", "-E", V, "runs the code given", "perl -E 1"),
            opt("perl", "-M", V, "loads a module first", "perl -Mx script.pl"),
            opt("perl", "-m", V, "loads a module first", "perl -mx script.pl"),
            opt("perl", "-I", V, "adds a module directory", "perl -I. script.pl"),
            opt("perl", "-d", Style.PREFIX, "runs the debugger (which reads .perldb)", "perl -d script.pl"),
            opt("ruby", "-e", V, "runs the code given", "ruby -e 1"),
            opt("ruby", "-r", V, "loads a library first", "ruby -r./x script.rb"),
            opt("ruby", "-I", V, "adds a library directory", "ruby -I. script.rb"),
            reads("make", "-f", "reads another makefile (its recipes run)", "make -f ./other.mk test"),
            reads("make", "--file", "reads another makefile", "make --file=./other.mk test"),
            reads("make", "--makefile", "reads another makefile", "make --makefile=./other.mk test"),
            opt("make", "-C", V, "runs in another directory, with its Makefile", "make -C /tmp/other test"),
            opt("make", "--directory", V, "runs in another directory, with its Makefile",
                    "make --directory=/tmp/other test"),
            opt("make", "-I", V, "where included makefiles are looked for", "make -I ./inc test"),
            opt("make", "--include-dir", V, "where included makefiles are looked for", "make --include-dir=./inc test"),
            opt("make", "--eval", V, "evaluates makefile text (recipes) given in the command", "make --eval=x test"),
            opt("make", "-E", V, "evaluates makefile text given in the command", "make -E x test"),
            opt("make", "=", Style.ASSIGNMENT, "overrides a makefile variable (SHELL, CC, MAKE... decide which"
                    + " programs the recipes run)", "make test SHELL=./x"),
            opt("tar", "--to-command", V, "pipes each extracted file into a command", "tar -xf a.tar --to-command=./x"),
            opt("tar", "-I", V, "compresses through the program it names", "tar -I ./x -cf a.tar f"),
            opt("tar", "--use-compress-program", V, "compresses through the program it names",
                    "tar --use-compress-program=./x -cf a.tar f"),
            opt("tar", "--checkpoint-action", V, "exec= runs a command at each checkpoint",
                    "tar --checkpoint=1 --checkpoint-action=exec=./x -cf a.tar f"),
            opt("tar", "-F", V, "runs a script at the end of each volume", "tar -F ./x -cf a.tar f"),
            opt("tar", "--info-script", V, "runs a script at the end of each volume", "tar --info-script=./x -cf a.tar f"),
            opt("tar", "--new-volume-script", V, "runs a script at the end of each volume",
                    "tar --new-volume-script=./x -cf a.tar f"),
            opt("tar", "--rsh-command", V, "runs this program to reach a remote archive",
                    "tar --rsh-command=./x -cf h:a.tar f"),
            opt("tar", "--rmt-command", V, "runs this program on the remote side", "tar --rmt-command=./x -cf a.tar f"),
            opt("sort", "--compress-program", V, "compresses temporary files through the program it names",
                    "sort --compress-program=./x f"),
            opt("rg", "--pre", V, "runs this program on every file it searches", "rg --pre ./x foo"),
            opt("rg", "--hostname-bin", V, "runs this program for the host name", "rg --hostname-bin=./x foo"),
            opt("less", "+", Style.PREFIX, "runs a less command at start (! runs a shell command)", "less '+!x' f"),
            reads("less", "-k", "reads key bindings (which can run commands) from this file", "less -k ./keys f"),
            reads("less", "--lesskey-file", "reads key bindings from this file", "less --lesskey-file=./keys f"),
            opt("less", "--lesskey-src", V, "reads key bindings from this file", "less --lesskey-src=./keys f"),
            opt("man", "-P", V, "shows the page with the pager it names", "man -P ./x ls"),
            opt("man", "--pager", V, "shows the page with the pager it names", "man --pager=./x ls"),
            opt("man", "-H", Style.PREFIX, "opens the page in the browser it names", "man -H./x ls"),
            opt("man", "--html", V, "opens the page in the browser it names", "man --html=./x ls"),
            opt("ssh", "-o", V, "an option such as ProxyCommand or LocalCommand runs a program",
                    "ssh -o ProxyCommand=./x host"),
            reads("ssh", "-F", "reads another configuration file (ProxyCommand...)", "ssh -F ./cfg host"),
            opt("scp", "-o", V, "an option such as ProxyCommand runs a program", "scp -o ProxyCommand=./x f h:"),
            opt("scp", "-S", V, "runs this program instead of ssh", "scp -S ./x f h:"),
            reads("scp", "-F", "reads another ssh configuration", "scp -F ./cfg f h:"),
            opt("rsync", "-e", V, "runs this program as the remote shell", "rsync -e ./x f h:"),
            opt("rsync", "--rsh", V, "runs this program as the remote shell", "rsync --rsh=./x f h:"),
            opt("rsync", "--rsync-path", V, "runs this program on the other side", "rsync --rsync-path=./x f d"),
            reads("curl", "-K", "reads options (output files, uploads) from this file", "curl -K ./cfg"),
            reads("curl", "--config", "reads options from this file", "curl --config=./cfg"),
            opt("wget", "-e", V, "runs a .wgetrc command (which can set output files and more)",
                    "wget -e x=y http://x"),
            opt("wget", "--execute", V, "runs a .wgetrc command", "wget --execute=x=y http://x"),
            reads("wget", "--config", "reads another .wgetrc", "wget --config=./rc http://x"),
            opt("zip", "-TT", V, "runs this program to test the archive", "zip -T -TT ./x a.zip f"),
            opt("zip", "--unzip-command", V, "runs this program to test the archive",
                    "zip -T --unzip-command=./x a.zip f"),
            opt("vim", "-c", V, "runs an editor command (! runs a shell command)", "vim -c '!x' f"),
            opt("vim", "--cmd", V, "runs an editor command first", "vim --cmd '!x' f"),
            opt("vim", "+", Style.PREFIX, "runs an editor command", "vim '+!x' f"),
            reads("vim", "-S", "runs the commands of this file", "vim -S ./s.vim f"),
            reads("vim", "-u", "reads this file as the vimrc", "vim -u ./rc f"),
            reads("vim", "-s", "types the keys of this file (commands included)", "vim -s ./keys f"),
            opt("vim", "-e", Style.FLAG, "reads editor commands from its input", "vim -e f <<< 'w! x'"),
            opt("vim", "-E", Style.FLAG, "reads editor commands from its input", "vim -E f <<< 'w! x'"),
            opt("vim", "-es", Style.FLAG, "reads editor commands from its input", "vim -es f <<< 'w! x'"),
            opt("vim", "-Es", Style.FLAG, "reads editor commands from its input", "vim -Es f <<< 'w! x'"),
            opt("install", "--strip-program", V, "runs this program on each file",
                    "install --strip-program=./x -s f d"));
    // spotless:on
}
