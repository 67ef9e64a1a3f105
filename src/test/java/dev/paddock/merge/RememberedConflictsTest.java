package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.testing.ConflictScenarios;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RememberedConflicts} on a real repository with the real classifier behind it. */
class RememberedConflictsTest {
    @TempDir
    Path tmp;

    @Test
    void theSameMergeIsClassifiedOnceAndAnotherMergeAgain() throws Exception {
        TempRepo repo = ConflictScenarios.serviceAndNotes(tmp.resolve("repo"));
        String ours = repo.git("rev-parse", "main").strip();
        String theirs = repo.git("rev-parse", "agent/b").strip();
        AtomicInteger computed = new AtomicInteger();
        ConflictAnalysis real = new ClassifiedConflicts(new ConflictClassifier(), new MergeTreeConflicts(new GitCli()));
        RememberedConflicts remembered = new RememberedConflicts((r, o, t) -> {
            computed.incrementAndGet();
            return real.classify(r, o, t);
        });

        ConflictReport first = remembered.classify(repo.dir(), ours, theirs);
        ConflictReport again = remembered.classify(repo.dir().resolve("src/.."), ours, theirs);
        assertThat(again).isSameAs(first);
        assertThat(computed).hasValue(1);
        assertThat(first.files()).extracting(f -> f.path()).containsExactly("notes.txt", "src/demo/Service.java");
        assertThat(first).isEqualTo(real.classify(repo.dir(), ours, theirs));

        // theirs and ours swapped: another merge, classified afresh
        ConflictReport swapped = remembered.classify(repo.dir(), theirs, ours);
        assertThat(computed).hasValue(2);
        assertThat(swapped.ours()).isEqualTo(theirs);
    }

    @Test
    void aFailureIsNotRememberedAndTheLeastRecentlyUsedReportIsDroppedFirst() throws Exception {
        TempRepo repo = ConflictScenarios.serviceAndNotes(tmp.resolve("repo"));
        String ours = repo.git("rev-parse", "main").strip();
        String theirs = repo.git("rev-parse", "agent/b").strip();
        AtomicInteger computed = new AtomicInteger();
        ConflictAnalysis git = new MergeTreeConflicts(new GitCli());
        RememberedConflicts remembered = new RememberedConflicts((r, o, t) -> {
            computed.incrementAndGet();
            return git.classify(r, o, t);
        });
        String unknown = "0123456789012345678901234567890123456789";
        assertThatThrownBy(() -> remembered.classify(repo.dir(), ours, unknown)).isInstanceOf(MergeException.class);
        assertThatThrownBy(() -> remembered.classify(repo.dir(), ours, unknown)).isInstanceOf(MergeException.class);
        assertThat(computed).hasValue(2);

        remembered.classify(repo.dir(), ours, theirs); // 3
        Path[] others = new Path[RememberedConflicts.CAPACITY];
        for (int i = 0; i < others.length; i++) { // the same merge seen through other spellings of other paths
            others[i] = tmp.resolve("links/l" + i);
            java.nio.file.Files.createDirectories(others[i].getParent());
            java.nio.file.Files.createSymbolicLink(others[i], repo.dir());
            remembered.classify(others[i], ours, theirs);
        }
        assertThat(computed).hasValue(3 + RememberedConflicts.CAPACITY);
        remembered.classify(others[others.length - 1], ours, theirs); // still remembered
        assertThat(computed).hasValue(3 + RememberedConflicts.CAPACITY);
        remembered.classify(repo.dir(), ours, theirs); // dropped: the least recently used
        assertThat(computed).hasValue(4 + RememberedConflicts.CAPACITY);
    }
}
