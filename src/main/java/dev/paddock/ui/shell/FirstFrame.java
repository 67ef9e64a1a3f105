package dev.paddock.ui.shell;

import javafx.animation.AnimationTimer;
import javafx.application.Platform;

/**
 * Runs work once a window's first frame has been drawn. JavaFX builds a frame on the FX thread in a pulse
 * (animations, then CSS, layout, and the hand-over to the render thread), and the render thread draws it
 * while the FX thread goes on; the next pulse that has something to draw first waits for that drawing to
 * finish ({@code PaintCollector.renderAll}: "wait for the previous rendering to complete"). An animation
 * timer runs at the start of a pulse, before the frame is built, so work started from the first pulse's
 * timer delays the first frame; queued from the second pulse, it runs after that pulse, when the first frame
 * is on screen. The window must change between the two pulses (Paddock's start-up spinner turns), else the
 * second pulse does not wait and the work may run while the first frame is still being drawn.
 */
final class FirstFrame {
    private FirstFrame() {}

    /** Runs {@code action} on the FX thread after the first frame of the window being shown is drawn. */
    static void afterDrawn(Runnable action) {
        new AnimationTimer() {
            private int pulses;

            @Override
            public void handle(long now) {
                if (++pulses == 2) {
                    stop();
                    Platform.runLater(action);
                }
            }
        }.start();
    }
}
