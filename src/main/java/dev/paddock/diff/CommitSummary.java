package dev.paddock.diff;

import java.time.Instant;

/** One commit on a sandbox's branch since its base commit. */
public record CommitSummary(String id, String shortId, String subject, String author, Instant time) {}
