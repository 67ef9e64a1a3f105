package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.Formats;
import java.time.Instant;
import java.util.function.Supplier;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.scene.control.TextField;
import javafx.scene.layout.Region;
import javafx.util.Duration;

/**
 * The follow-up field's line of a sandbox waiting for a person ("Answer here (Enter sends). Its turn ended 7 s ago:
 * …"), kept current: once a second, and only while such a sandbox shows in a pane on screen (the prompt is set only
 * when its text changes).
 */
final class WaitingLineClock {
    private final Region owner;
    private final TextField field;
    private final Supplier<RepositoryStatus.Sandbox> shown;
    private final Timeline clock = new Timeline(new KeyFrame(Duration.seconds(1), e -> tick()));

    /**
     * @param owner the pane the field is in: the clock runs only while it is in a scene and visible
     * @param shown the sandbox the pane shows now, or null
     */
    WaitingLineClock(Region owner, TextField field, Supplier<RepositoryStatus.Sandbox> shown) {
        this.owner = owner;
        this.field = field;
        this.shown = shown;
        clock.setCycleCount(Animation.INDEFINITE);
        owner.sceneProperty().addListener((o, a, scene) -> update());
        owner.visibleProperty().addListener((o, a, v) -> update());
    }

    /** Starts the clock while a waiting sandbox shows, stops it otherwise (call when the sandbox shown changes). */
    void update() {
        RepositoryStatus.Sandbox s = shown.get();
        boolean run = s != null
                && s.waitingForYou()
                && s.waitingSince() != null
                && owner.getScene() != null
                && owner.isVisible();
        if (run && clock.getStatus() != Animation.Status.RUNNING) {
            clock.play();
        } else if (!run) {
            clock.stop();
        }
    }

    private void tick() {
        RepositoryStatus.Sandbox s = shown.get();
        if (s == null || !s.waitingForYou()) {
            update();
            return;
        }
        String line = line(s);
        if (!line.equals(field.getPromptText())) {
            field.setPromptText(line);
        }
    }

    /** "Answer here (Enter sends). Its turn ended 3 min ago: “The tree is clean.”" */
    static String line(RepositoryStatus.Sandbox s) {
        String since = s.waitingSince() == null ? "" : " " + Formats.ago(s.waitingSince(), Instant.now());
        String said = s.waitingDetail() == null ? "" : s.waitingDetail().strip().replaceAll("\\s+", " ");
        return "Answer here (Enter sends). Its turn ended" + since
                + (said.isEmpty() ? "." : ": \u201c" + said + "\u201d");
    }
}
