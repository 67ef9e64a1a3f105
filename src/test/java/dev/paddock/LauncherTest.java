package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script {@code src/main/dist/paddock} (which {@code mvn package} writes to {@code target/paddock}),
 * run for real by {@code sh}: installed in one folder with a {@code paddock.jar} next to it, and started through
 * symbolic links from other folders, as people do when they link it into {@code ~/.local/bin}.
 *
 * <p>The {@code paddock.jar} here is a manifest-only jar whose {@code Class-Path} is the test class path, so it
 * runs the real {@code dev.paddock.Paddock} without needing {@code mvn package} first.
 */
class LauncherTest {
    @TempDir
    Path tmp;

    @Test
    void startsThroughASymlinkFromAnotherFolder() throws Exception {
        Path launcher = install(tmp.resolve("install"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path link = Files.createSymbolicLink(bin.resolve("paddock"), launcher);

        Run run = run(link, "--version");

        assertThat(run.err()).doesNotContain("Unable to access jarfile");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("Paddock ");
    }

    @Test
    void startsThroughAChainOfRelativeSymlinks() throws Exception {
        Path launcher = install(tmp.resolve("opt").resolve("paddock-1"));
        Path current = Files.createSymbolicLink(tmp.resolve("opt").resolve("current"), Path.of("paddock-1"));
        Path bin = Files.createDirectories(tmp.resolve("home").resolve(".local").resolve("bin"));
        Path link = Files.createSymbolicLink(
                bin.resolve("paddock"), bin.relativize(current.resolve(launcher.getFileName())));

        Run run = run(link, "--version");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("Paddock ");
    }

    @Test
    void startsDirectlyFromAFolderWithSpaces() throws Exception {
        Path launcher = install(tmp.resolve("my apps").resolve("paddock"));

        Run run = run(launcher, "--version");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("Paddock ");
    }

    @Test
    void underAnAsciiLocaleTheJvmStartsOnceWithUtf8FileNames() throws Exception {
        Path launcher = install(tmp.resolve("install"));

        Run run = run(
                launcher, java.util.Map.of("LANG", "C", "PADDOCK_JAVA_OPTS", "-XshowSettings:properties"), "--version");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err())
                .as("one JVM, started with UTF-8 file names")
                .containsOnlyOnce("sun.jnu.encoding")
                .contains("sun.jnu.encoding = UTF-8");
    }

    @Test
    void aUtf8LocaleIsLeftAsItIs() throws Exception {
        Path launcher = install(tmp.resolve("install"));

        Run run = run(
                launcher,
                java.util.Map.of("LANG", "C.UTF-8", "PADDOCK_JAVA_OPTS", "-XshowSettings:properties"),
                "--version");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).containsOnlyOnce("sun.jnu.encoding");
    }

    @Test
    void withoutAGpuDeviceOpenGlIsNotLoadedAndPrismDrawsInSoftware() throws Exception {
        Path launcher = install(tmp.resolve("install"));
        boolean gpu = gpuDevice();

        Run run = run(
                launcher,
                java.util.Map.of("LANG", "C.UTF-8", "JAVA_HOME", fakeJava().toString()));

        assertThat(run.exit()).as(run.err()).isZero();
        if (gpu) {
            assertThat(run.out()).contains("GDK_GL=unset").doesNotContain("-Dprism.order=sw");
        } else {
            assertThat(run.out()).contains("GDK_GL=disable").contains("-Dprism.order=sw");
        }
    }

    @Test
    void aPersonsOwnRenderingChoiceWins() throws Exception {
        Path launcher = install(tmp.resolve("install"));

        Run run = run(
                launcher,
                java.util.Map.of(
                        "LANG", "C.UTF-8",
                        "JAVA_HOME", fakeJava().toString(),
                        "GDK_GL", "always",
                        "PADDOCK_JAVA_OPTS", "-Dprism.order=es2"));

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("GDK_GL=always");
        List<String> args = run.out().lines().toList();
        assertThat(args).contains("-Dprism.order=es2");
        assertThat(args.lastIndexOf("-Dprism.order=es2"))
                .as("the last -D of a property is the one the JVM keeps")
                .isGreaterThan(args.lastIndexOf("-Dprism.order=sw"));
    }

    /** The devices the launcher takes as a GPU's (see src/main/dist/paddock). */
    private static boolean gpuDevice() throws IOException {
        if (Files.exists(Path.of("/dev/nvidiactl")) || Files.exists(Path.of("/dev/dxg"))) {
            return true;
        }
        Path dri = Path.of("/dev/dri");
        if (!Files.isDirectory(dri)) {
            return false;
        }
        try (Stream<Path> nodes = Files.list(dri)) {
            return nodes.map(p -> p.getFileName().toString())
                    .anyMatch(n -> n.startsWith("renderD") || n.startsWith("card"));
        }
    }

    /** A JAVA_HOME whose {@code bin/java} prints GDK_GL and then each argument it was given, one a line. */
    private Path fakeJava() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("fake-jdk").resolve("bin"));
        Path java = Files.writeString(
                bin.resolve("java"),
                "#!/bin/sh\necho \"GDK_GL=${GDK_GL-unset}\"\nfor a in \"$@\"; do echo \"$a\"; done\n",
                StandardCharsets.UTF_8);
        assertThat(java.toFile().setExecutable(true)).isTrue();
        return bin.getParent();
    }

    /** Puts the launcher (with no extra JVM options) and a {@code paddock.jar} into {@code dir}. */
    private static Path install(Path dir) throws IOException {
        Files.createDirectories(dir);
        String script = Files.readString(Path.of("src", "main", "dist", "paddock"), StandardCharsets.UTF_8)
                .replace("@JVM_OPTIONS@", "-Xmx256m");
        Path launcher = Files.writeString(dir.resolve("paddock"), script, StandardCharsets.UTF_8);
        assertThat(launcher.toFile().setExecutable(true)).isTrue();
        writeClassPathJar(dir.resolve("paddock.jar"));
        return launcher;
    }

    private static void writeClassPathJar(Path jar) throws IOException {
        String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of)
                .map(p -> p.toAbsolutePath().toUri().toString())
                .collect(Collectors.joining(" "));
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "dev.paddock.Paddock");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // the manifest is the whole jar
        }
    }

    private record Run(int exit, String out, String err) {}

    private Run run(Path launcher, String... args) throws Exception {
        return run(launcher, java.util.Map.of(), args);
    }

    private Run run(Path launcher, java.util.Map<String, String> env, String... args) throws Exception {
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        List<String> cmd = new java.util.ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(tmp.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("PADDOCK_JAVA_OPTS");
        if (!env.isEmpty()) {
            pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.equals("GDK_GL"));
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the launcher did not end within 60 s");
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
