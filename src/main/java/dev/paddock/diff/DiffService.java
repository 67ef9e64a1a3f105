package dev.paddock.diff;

/**
 * A sandbox's whole change against its base: the commits on its branch since its base commit and what its worktree
 * holds beyond them (uncommitted and untracked files, not ignored ones), or one commit of its branch against its
 * parent. Reads only: neither the worktree, its index nor any ref is changed. Slow (git): never on the FX thread.
 */
public final class DiffService {
    /** A side larger than this gets counts but no hunks ({@link FilePatch#tooLarge()}). */
    public static final long MAX_TEXT_BYTES = 5L * 1024 * 1024;
}
