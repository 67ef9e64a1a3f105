package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.Wrappers.Spec;
import dev.paddock.policy.Wrappers.Style;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The wrappers {@link Wrappers} knows, with their option syntax: options taking a value ({@code values}, with
 * {@code arity} for those taking several words), operands before the command, options holding a command string
 * ({@code scripts}), options after which no command runs ({@code noCommand}), files written or read
 * ({@code writes}, {@code reads}; the key {@code ""} stands for the operands), environment assignments
 * ({@code env}), the command's directory ({@code dirs}), options that make it load or run something else or see
 * other files ({@code risky}), what running it without a command does ({@code bare}), and whether rules about
 * the wrapper itself apply ({@code itself}: sudo, chroot).
 */
final class WrapperTable {
    static final Map<String, Spec> SPECS = new HashMap<>();
    private static final String SHELL =
            "it runs an interactive shell, which reads its commands from standard input" + " (and its start-up files)";

    /** A table entry under construction. */
    private static final class B {
        private final String name;
        private Style style = Style.WORDS;
        private String shortValue = "";
        private final Map<String, Integer> longValue = new HashMap<>();
        private int operands;
        private final Set<String> scripts = new HashSet<>();
        private final Set<String> noCommand = new HashSet<>();
        private final Map<String, Kind> files = new HashMap<>();
        private final Set<String> env = new HashSet<>();
        private final Set<String> dirs = new HashSet<>();
        private final Map<String, String> risky = new HashMap<>();
        private String bare;
        private boolean judgedItself;

        B(String name) {
            this.name = name;
        }

        /** Short letters taking a value, and long options (or {@code -ex}-style single-dash ones) taking one. */
        B values(String shortLetters, String... longNames) {
            shortValue += shortLetters;
            for (String l : longNames) {
                longValue.put(l, 1);
            }
            return this;
        }

        B arity(int n, String... longNames) {
            for (String l : longNames) {
                longValue.put(l, n);
            }
            return this;
        }

        B operands(int n) {
            operands = n;
            return this;
        }

        B style(Style s) {
            style = s;
            return this;
        }

        B scripts(String... keys) {
            scripts.addAll(List.of(keys));
            return this;
        }

        B noCommand(String... keys) {
            noCommand.addAll(List.of(keys));
            return this;
        }

        B writes(String... keys) {
            for (String k : keys) {
                files.put(k, Kind.WRITE);
            }
            return this;
        }

        B reads(String... keys) {
            for (String k : keys) {
                files.put(k, Kind.READ);
            }
            return this;
        }

        B env(String... keys) {
            env.addAll(List.of(keys));
            return this;
        }

        B dirs(String... keys) {
            dirs.addAll(List.of(keys));
            return this;
        }

        B risky(String reason, String... keys) {
            for (String k : keys) {
                risky.put(k, reason);
            }
            return this;
        }

        B bare(String problem) {
            bare = problem;
            return this;
        }

        B itself() {
            judgedItself = true;
            return this;
        }

        void add(String... aliases) {
            Spec s = new Spec(
                    name,
                    style,
                    shortValue,
                    Map.copyOf(longValue),
                    operands,
                    Set.copyOf(scripts),
                    Set.copyOf(noCommand),
                    Map.copyOf(files),
                    Set.copyOf(env),
                    Set.copyOf(dirs),
                    Map.copyOf(risky),
                    bare,
                    judgedItself);
            SPECS.put(name, s);
            for (String a : aliases) {
                SPECS.put(a, s);
            }
        }
    }

    private static B w(String name) {
        return new B(name);
    }

    // spotless:off  The table's layout (one wrapper a line, its options together) is its meaning.
    static {
        String loads = "makes the command load a library or program it names";
        String mounts = "the command sees other files under the paths it names (bind mounts, another root), which"
                + " the analysis cannot follow";
        w("timeout").values("ks", "--kill-after", "--signal").operands(1).add();
        w("nice").values("n", "--adjustment").add();
        w("stdbuf").values("ioe", "--input", "--output", "--error").add();
        w("setsid").add();
        w("ionice").values("cnpPu", "--class", "--classdata", "--pid", "--pgid", "--uid")
                .noCommand("-p", "-P", "-u", "--pid", "--pgid", "--uid").add();
        w("nohup").add();
        w("builtin").add();
        w("exec").values("a").add();
        w("command").noCommand("-v", "-V").add();
        w("time").values("fo", "--format", "--output").writes("-o", "--output").add();
        w("flock").values("wE", "--timeout", "--wait", "--conflict-exit-code").operands(1)
                .scripts("-c", "--command").writes("").add();
        w("taskset").operands(1).noCommand("-p", "--pid").add();
        w("chrt").values("TPD", "--sched-runtime", "--sched-period", "--sched-deadline").operands(1)
                .noCommand("-p", "--pid", "-m", "--max").add();
        w("prlimit").values("po", "--pid", "--output").noCommand("-p", "--pid").add();
        w("setpriv").values("", "--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups",
                "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
                "--apparmor-profile", "--landlock-access", "--landlock-rule", "--ptracer")
                .noCommand("-d", "--dump").add();
        w("unshare").values("SGRw", "--setuid", "--setgid", "--root", "--wd", "--map-user", "--map-group",
                "--map-users", "--map-groups", "--propagation", "--setgroups", "--monotonic", "--boottime")
                .dirs("-w", "--wd").risky(mounts, "-R", "--root").bare(SHELL).add();
        w("nsenter").values("tSG", "--target", "--setuid", "--setgid")
                .risky("the command runs in another process's namespaces and directory", "-r", "--root", "-w",
                        "--wd", "-m", "--mount")
                .bare(SHELL).add();
        w("chroot").values("", "--userspec", "--groups").operands(1).bare(SHELL).itself().add();
        w("script").style(Style.STRING).values("cEIOBTmo", "--command", "--echo", "--log-in", "--log-out",
                "--log-io", "--log-timing", "--logging-format", "--output-limit").scripts("-c", "--command")
                .writes("-I", "-O", "-B", "-T", "--log-in", "--log-out", "--log-io", "--log-timing", "--timing", "")
                .bare(SHELL)
                .add();
        w("su").style(Style.STRING).values("cgGsw", "--command", "--session-command", "--group", "--supp-group",
                "--shell", "--whitelist-environment").scripts("-c", "--command", "--session-command")
                .risky("runs the shell it names", "-s", "--shell").bare(SHELL).itself().add();
        w("runuser").style(Style.STRING).values("cgGsuw", "--command", "--session-command", "--group", "--supp-group", "--shell",
                "--user", "--whitelist-environment").scripts("-c", "--command", "--session-command")
                .risky("runs the shell it names", "-s", "--shell").itself().add();
        w("sg").style(Style.JOINED).operands(1).scripts("-c").itself().add();
        w("sudo").values("CDghpRrtTUu", "--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type",
                "--other-user", "--close-from", "--command-timeout").dirs("-D", "--chdir")
                .noCommand("-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp",
                        "--remove-timestamp", "-e", "--edit")
                .itself().add("doas", "pkexec", "run0");
        w("fakeroot").values("lsib", "--lib", "--faked").writes("-s").reads("-i")
                .risky(loads, "-l", "--lib", "--faked").bare(SHELL).add("fakeroot-sysv", "fakeroot-tcp");
        w("valgrind").writes("--log-file", "--xml-file").reads("--suppressions")
                .risky(loads, "--tool", "--vgdb-prefix", "--extra-debuginfo-path").add();
        w("strace").values("abeEIoOpPsSuUX", "--output", "--env", "--attach", "--user", "--trace-path",
                "--string-limit", "--summary-sort-by", "--columns", "--trace", "--signal", "--status",
                "--quiet", "--decode-fds", "--silence").writes("-o", "--output").env("-E", "--env").add();
        w("ltrace").values("aAeFlnopsuwxD", "--output", "--config", "--library", "--indent", "--align")
                .writes("-o", "--output").reads("-F", "--config").add();
        w("catchsegv").add();
        w("dbus-launch").risky("reads a bus configuration, which starts the services it names", "--config-file")
                .add();
        w("systemd-run").values("upHMEs", "--unit", "--property", "--description", "--slice", "--uid", "--gid",
                "--nice", "--setenv", "--working-directory", "--machine", "--host", "--on-active", "--on-boot",
                "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property",
                "--path-property", "--socket-property", "--service-type", "--send-sighup", "--json")
                .env("-E", "--setenv").dirs("--working-directory")
                .risky("the command runs as a service, in a directory and environment of the service manager",
                        "--unit", "-u", "--user", "--system", "--on-active", "--on-calendar", "--host", "-H",
                        "--machine", "-M")
                .add("systemd-run-user");
        w("firejail").bare(SHELL).add();
        w("dbus-run-session").values("", "--config-file", "--dbus-daemon")
                .risky(loads, "--config-file", "--dbus-daemon").add();
        w("xvfb-run").values("efnpsw", "--error-file", "--auth-file", "--server-num", "--xauth-protocol",
                "--server-args", "--wait").writes("-e", "--error-file", "-f", "--auth-file").add();
        w("numactl").values("CNmipP", "--physcpubind", "--cpunodebind", "--membind", "--interleave",
                "--preferred", "--preferred-many").noCommand("-s", "--show", "-H", "--hardware").add();
        w("tini").values("pse", "-p", "-e").add("dumb-init", "catatonit");
        w("chronic").add("eatmydata", "nocache", "unbuffer", "torsocks", "tsocks", "proxychains", "proxychains4",
                "caffeinate", "linux32", "linux64", "i386", "x86_64", "pgrphack", "rlwrap");
        w("setarch").operands(1).values("", "--uname-2.6").add();
        w("setuidgid").operands(1).add("envuidgid");
        w("softlimit").values("mdsalfcroptPH").add();
        w("envdir").operands(1).risky("reads environment variables (HOME, PATH...) from the files of that"
                + " directory", "").add();
        w("chpst").values("uUbenlLmdofcrt").risky("reads environment variables from the files of a directory",
                "-e").add();
        w("ld.so").values("", "--library-path", "--inhibit-rpath", "--audit", "--preload", "--argv0",
                "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask")
                .risky(loads, "--library-path", "--audit", "--preload", "--glibc-hwcaps-prepend")
                .noCommand("--list-tunables", "--list-diagnostics", "--help", "--version")
                .add("ld-linux.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "ld-linux-armhf.so.3");
        w("bwrap").arity(1, "--args", "--argv0", "--userns", "--userns2", "--pidns", "--uid", "--gid", "--hostname",
                "--unsetenv", "--lock-file", "--sync-fd", "--perms", "--size", "--remount-ro", "--overlay-src",
                "--tmp-overlay", "--ro-overlay", "--exec-label", "--file-label", "--proc", "--dev", "--tmpfs",
                "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd", "--block-fd", "--userns-block-fd", "--info-fd",
                "--json-status-fd", "--cap-add", "--cap-drop", "--chdir")
                .arity(2, "--setenv", "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind",
                        "--ro-bind-try", "--bind-fd", "--ro-bind-fd", "--file", "--bind-data", "--ro-bind-data",
                        "--symlink", "--chmod")
                .arity(3, "--overlay").env("--setenv").dirs("--chdir")
                .risky(mounts, "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try",
                        "--bind-fd", "--ro-bind-fd", "--symlink", "--overlay", "--ro-overlay", "--tmp-overlay",
                        "--file", "--bind-data", "--ro-bind-data")
                .risky("reads more arguments from a descriptor at run time", "--args").add();
        w("gdb").values("", "-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex",
                "-init-eval-command", "--init-eval-command", "-x", "--x", "-command", "--command", "-ix", "--ix",
                "-init-command", "--init-command", "-p", "--pid", "-c", "--core", "-s", "--symbols", "-e", "--exec",
                "-se", "-cd", "--cd", "-d", "--directory", "-D", "--data-directory", "-tty", "--tty", "-b")
                .risky("gdb runs debugger commands, which run programs (shell, run, python, call system)", "-ex",
                        "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command",
                        "--init-eval-command", "-x", "--x", "-command", "--command", "-ix", "--ix", "-init-command",
                        "--init-command")
                .add("gdb-multiarch");
    }
    // spotless:on

    private WrapperTable() {}
}
