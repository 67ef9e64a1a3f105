package dev.paddock.ui.shell;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.image.Image;
import javafx.scene.image.ImageView;

/** Paddock's own icon (assets/paddock.svg rendered to PNGs) for windows and the header. */
final class AppIcons {
    private static final int[] SIZES = {16, 32, 64, 128, 256};

    private AppIcons() {}

    /** The window icons in every size present. */
    static List<Image> windowIcons() {
        List<Image> out = new ArrayList<>();
        for (int s : SIZES) {
            Image i = load(s);
            if (i != null) {
                out.add(i);
            }
        }
        return out;
    }

    /** The logo at {@code size} pixels, for the header (an empty node when the PNGs are missing). */
    static Node logo(int size) {
        Image i = load(size <= 32 ? 32 : 64);
        if (i == null) {
            return null;
        }
        ImageView v = new ImageView(i);
        v.setFitWidth(size);
        v.setFitHeight(size);
        v.setSmooth(true);
        return v;
    }

    private static Image load(int size) {
        InputStream in = AppIcons.class.getResourceAsStream("/dev/paddock/ui/icons/paddock-" + size + ".png");
        return in == null ? null : new Image(in);
    }
}
