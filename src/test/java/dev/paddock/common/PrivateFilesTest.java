package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.api.InstanceFile;
import dev.paddock.approval.HookScript;
import dev.paddock.settings.HomePermissions;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owner-only files on a real file system, whatever the process's umask: created with their mode, existing modes
 * kept where they are a person's choice, a loosened home tightened without touching what is not Paddock's.
 */
class PrivateFilesTest {
    @TempDir
    Path tmp;

    @Test
    void filesAndTheirMissingDirectoriesAreCreatedOwnerOnly() throws Exception {
        Path file = tmp.resolve("new/dir/instance.json");

        PrivateFiles.writeString(file, "{}");
        PrivateFiles.append(tmp.resolve("logs/sandboxes/a.log"), "one\n");
        PrivateFiles.write(tmp.resolve("bin/script"), "#!/bin/sh\n".getBytes(), PrivateFiles.DIR);
        PrivateFiles.createFile(tmp.resolve("store/paddock.mv.db"));

        assertThat(mode(file)).isEqualTo("600");
        assertThat(mode(tmp.resolve("new"))).isEqualTo("700");
        assertThat(mode(tmp.resolve("new/dir"))).isEqualTo("700");
        assertThat(mode(tmp.resolve("logs/sandboxes/a.log"))).isEqualTo("600");
        assertThat(mode(tmp.resolve("logs/sandboxes"))).isEqualTo("700");
        assertThat(mode(tmp.resolve("bin/script"))).isEqualTo("700");
        assertThat(mode(tmp.resolve("store/paddock.mv.db"))).isEqualTo("600");
        assertThat(tmp.resolve("new/dir/instance.json.tmp")).doesNotExist();
    }

    @Test
    void appendingKeepsAnExistingFilesModeAndContent() throws Exception {
        Path log = tmp.resolve("a.log");
        Files.writeString(log, "one\n");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r-----"));

        PrivateFiles.append(log, "two\n");

        assertThat(log).hasContent("one\ntwo");
        assertThat(mode(log)).isEqualTo("640");
    }

    @Test
    void theInstanceFileAndTheHookScriptAreOwnerOnly() throws Exception {
        Path home = Files.createDirectory(tmp.resolve("home"));
        new InstanceFile(42, 4242, "serve", Instant.now()).write(home.resolve("instance.json"));

        Path script = HookScript.write(home, 600_000);

        assertThat(mode(home.resolve("instance.json"))).isEqualTo("600");
        assertThat(mode(script)).isEqualTo("700");
        assertThat(mode(script.getParent())).isEqualTo("700");
    }

    @Test
    void aJsonFileKeepsItsModeAndIsOwnerOnlyWhenNewInAPrivateDirectory() throws Exception {
        ObjectNode json = Json.mapper().createObjectNode().put("a", 1);
        Path privateDir = Files.createDirectory(
                tmp.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path sharedDir = Files.createDirectory(
                tmp.resolve("repo"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path usual = Files.createFile(sharedDir.resolve("usual")); // the process's umask decides

        JsonFiles.writeWithBackup(privateDir.resolve("policy.json"), json);
        JsonFiles.writeWithBackup(sharedDir.resolve("settings.json"), json);
        Path chosen = sharedDir.resolve("policy.json");
        Files.writeString(chosen, "{}");
        Files.setPosixFilePermissions(chosen, PosixFilePermissions.fromString("rw-rw----"));
        JsonFiles.writeWithBackup(chosen, json);

        assertThat(mode(privateDir.resolve("policy.json"))).isEqualTo("600");
        assertThat(mode(sharedDir.resolve("settings.json")))
                .as("a repository's file")
                .isEqualTo(mode(usual));
        assertThat(mode(chosen)).isEqualTo("660");
        assertThat(mode(sharedDir.resolve("policy.json.bak"))).isEqualTo("660");
    }

    @Test
    void aLinkPlantedAsTheTemporaryFileIsReplacedNotWrittenThrough() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim"), "keep me");
        Path repo = Files.createDirectories(tmp.resolve("repo/.paddock"));
        Files.createSymbolicLink(repo.resolve("policy.json.tmp"), victim);

        JsonFiles.writeWithBackup(
                repo.resolve("policy.json"), Json.mapper().createObjectNode().put("a", 1));

        assertThat(victim).hasContent("keep me");
        assertThat(repo.resolve("policy.json")).content().contains("\"a\" : 1");
        assertThat(repo.resolve("policy.json.tmp")).doesNotExist();
    }

    @Test
    void aLoosenedHomeIsTightenedExceptWhatIsNotPaddocksAndSymbolicLinks() throws Exception {
        Path home = Files.createDirectory(tmp.resolve("home"));
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "x");
        for (String f : new String[] {
            "paddock.mv.db",
            "paddock.trace.db",
            "api-token",
            "instance.json.tmp",
            "policy.json",
            "policy.json.bak",
            "ui.properties",
            "notes.txt",
            "logs/paddock.log",
            "logs/merges/1.log"
        }) {
            Files.createDirectories(home.resolve(f).getParent());
            Files.writeString(home.resolve(f), "x");
        }
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("bin/paddock-hook-claude"), "#!/bin/sh\n");
        Files.createSymbolicLink(home.resolve("logs/link.log"), outside);
        try (var all = Files.walk(home)) {
            for (Path p : all.toList()) {
                boolean exec = Files.isDirectory(p) || p.endsWith("paddock-hook-claude");
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(exec ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rw-r--r--"));

        var changes = HomePermissions.tighten(home, tmp.resolve("someone"));

        assertThat(changes)
                .contains(
                        "755 → 700 " + home,
                        "644 → 600 " + home.resolve("paddock.mv.db"),
                        "755 → 700 " + home.resolve("bin/paddock-hook-claude"),
                        "644 → 600 " + home.resolve("logs/merges/1.log"));
        for (String f : new String[] {
            "paddock.mv.db",
            "paddock.trace.db",
            "api-token",
            "instance.json.tmp",
            "policy.json",
            "policy.json.bak",
            "ui.properties",
            "logs/paddock.log",
            "logs/merges/1.log"
        }) {
            assertThat(mode(home.resolve(f))).as(f).isEqualTo("600");
        }
        assertThat(mode(home.resolve("logs/merges"))).isEqualTo("700");
        assertThat(mode(home.resolve("bin/paddock-hook-claude"))).isEqualTo("700");
        assertThat(mode(home.resolve("notes.txt"))).as("not Paddock's").isEqualTo("644");
        assertThat(mode(outside)).as("reached through a symbolic link").isEqualTo("644");
        assertThat(HomePermissions.tighten(home, tmp.resolve("someone")))
                .as("a second time")
                .isEmpty();
    }

    @Test
    void aHomeThatIsTheUsersOwnHomeDirectoryKeepsItsMode() throws Exception {
        Path home = Files.createDirectory(tmp.resolve("user"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-x---"));
        Files.writeString(home.resolve("paddock.mv.db"), "x");

        HomePermissions.tighten(home, home);

        assertThat(mode(home)).isEqualTo("750");
        assertThat(mode(home.resolve("paddock.mv.db"))).isEqualTo("600");
    }

    private static String mode(Path p) throws Exception {
        return PrivateFiles.octal(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
