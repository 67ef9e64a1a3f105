package dev.paddock.ui.theme;

/**
 * The names of Paddock's own style classes, one constant each, so that a view and the style sheets
 * ({@code paddock.css} and each view's own sheet) cannot drift apart by a typo: {@code StyleClassesTest} checks that
 * every selector of the sheets names a constant here (or starts with a {@code _PREFIX} one). A few classes have no
 * rule and only mark nodes that code or tests look up. AtlantaFX's own classes ({@code accent}, {@code flat} …)
 * come from {@link atlantafx.base.theme.Styles}.
 */
public final class Style {
    // Layout and text used across views
    public static final String APPROVALS = "pd-approvals";
    public static final String ASKING = "pd-asking";
    public static final String BAD = "pd-bad";
    public static final String BADGE = "pd-badge";
    public static final String BANNER = "pd-banner";
    public static final String BODY = "pd-body";
    public static final String BRAND = "pd-brand";
    public static final String CHANGES = "pd-changes";
    public static final String COMPACT = "pd-compact";
    public static final String CONFLICTS = "pd-conflicts";
    public static final String CONTAINER_CHART = "pd-container-chart";
    public static final String CONTAINERS = "pd-containers";
    public static final String DASHBOARD = "pd-dashboard";
    public static final String DENY_REASON = "pd-deny-reason";
    public static final String FAILED = "pd-failed";
    public static final String FORM_LABEL = "pd-form-label";
    public static final String GROUP_MARK = "pd-group-mark";
    public static final String HEADER = "pd-header";
    public static final String LOG = "pd-log";
    public static final String MUTED = "pd-muted";
    public static final String OK = "pd-ok";
    public static final String PROBLEM = "pd-problem";
    public static final String ROOT = "pd-root";
    public static final String SANDBOXES = "pd-sandboxes";
    public static final String STATUS_BAR = "pd-status-bar";
    public static final String STOPPED = "pd-stopped";
    public static final String TABLE = "pd-table";
    public static final String TABS = "pd-tabs";
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String TIER_PREFIX = "pd-tier-";

    public static final String TILES = "pd-tiles";
    public static final String TOOLBAR = "pd-toolbar";
    public static final String WAITING = "pd-waiting";

    // approval
    public static final String APPROVAL = "pd-approval";
    public static final String APPROVAL_CELL = "pd-approval-cell";
    public static final String APPROVAL_COMMAND = "pd-approval-command";
    public static final String APPROVAL_DENY_GROUP = "pd-approval-deny-group";
    public static final String APPROVAL_DETAIL = "pd-approval-detail";
    public static final String APPROVAL_LEFT = "pd-approval-left";
    public static final String APPROVAL_LEFT_SOON = "pd-approval-left-soon";
    public static final String APPROVAL_LIST = "pd-approval-list";
    public static final String APPROVAL_MEMBER = "pd-approval-member";
    public static final String APPROVAL_NOTE = "pd-approval-note";
    public static final String APPROVAL_NOTE_ERROR = "pd-approval-note-error";
    public static final String APPROVAL_NOTE_SUCCESS = "pd-approval-note-success";
    public static final String APPROVAL_NOTE_WARNING = "pd-approval-note-warning";
    public static final String APPROVAL_NOTIFICATION = "pd-approval-notification";
    public static final String APPROVAL_SANDBOX = "pd-approval-sandbox";
    public static final String APPROVAL_WHO = "pd-approval-who";

    // card
    public static final String CARD = "pd-card";
    public static final String CARD_HEADER = "pd-card-header";
    public static final String CARD_TITLE = "pd-card-title";

    // chart
    public static final String CHART_LEGEND = "pd-chart-legend";
    public static final String CHART_LEGEND_ITEM = "pd-chart-legend-item";

    // chip
    public static final String CHIP = "pd-chip";
    public static final String CHIP_ACCENT = "pd-chip-accent";
    public static final String CHIP_DANGER = "pd-chip-danger";
    public static final String CHIP_MUTED = "pd-chip-muted";
    public static final String CHIP_SUCCESS = "pd-chip-success";
    public static final String CHIP_WARNING = "pd-chip-warning";

    // code
    public static final String CODE = "pd-code";
    public static final String CODE_CAPTION = "pd-code-caption";
    public static final String CODE_PANE = "pd-code-pane";

    // diff
    public static final String DIFF_ADDED = "pd-diff-added";
    public static final String DIFF_AREA = "pd-diff-area";
    public static final String DIFF_COMMENT = "pd-diff-comment";
    public static final String DIFF_COMMENTS = "pd-diff-comments";
    public static final String DIFF_CONTEXT = "pd-diff-context";
    public static final String DIFF_DELETED = "pd-diff-deleted";
    public static final String DIFF_FILES = "pd-diff-files";
    public static final String DIFF_FILLER = "pd-diff-filler";
    public static final String DIFF_KIND = "pd-diff-kind";
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String DIFF_KIND_PREFIX = "pd-diff-kind-";

    public static final String DIFF_MODES = "pd-diff-modes";
    public static final String DIFF_NOTE = "pd-diff-note";
    public static final String DIFF_TOOLBAR = "pd-diff-toolbar";
    public static final String DIFF_VIEW = "pd-diff-view";
    /** Syntax colours of code (the diff view's token classes). */
    public static final String SYN_ANNOTATION = "pd-syn-annotation";

    public static final String SYN_COMMENT = "pd-syn-comment";
    public static final String SYN_FUNCTION = "pd-syn-function";
    public static final String SYN_KEYWORD = "pd-syn-keyword";
    public static final String SYN_NUMBER = "pd-syn-number";
    public static final String SYN_STRING = "pd-syn-string";
    public static final String SYN_TYPE = "pd-syn-type";

    // compare
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String COMPARE_PREFIX = "pd-compare-";

    public static final String COMPARE_FAILED = "pd-compare-failed";
    public static final String COMPARE_PASSED = "pd-compare-passed";

    // conflict
    public static final String CONFLICT_BRANCH = "pd-conflict-branch";
    public static final String CONFLICT_CELL = "pd-conflict-cell";
    public static final String CONFLICT_HUMAN = "pd-conflict-human";
    public static final String CONFLICT_NOTIFICATION = "pd-conflict-notification";
    public static final String CONFLICT_SAFE = "pd-conflict-safe";

    // details
    public static final String DETAILS = "pd-details";
    public static final String DETAILS_ERROR = "pd-details-error";
    public static final String DETAILS_HEADER = "pd-details-header";
    public static final String DETAILS_TABS = "pd-details-tabs";
    public static final String DETAILS_TITLE = "pd-details-title";

    // dialog
    public static final String DIALOG = "pd-dialog";
    public static final String DIALOG_BOTTOM = "pd-dialog-bottom";
    public static final String DIALOG_FORM = "pd-dialog-form";
    public static final String DIALOG_SCROLL = "pd-dialog-scroll";
    public static final String DIALOG_SCROLLING = "pd-dialog-scrolling";
    public static final String DIALOG_WIDE = "pd-dialog-wide";

    // diff
    public static final String DIFF = "pd-diff";
    public static final String DIFF_ADD = "pd-diff-add";
    public static final String DIFF_DEL = "pd-diff-del";
    public static final String DIFF_HUNK = "pd-diff-hunk";
    public static final String DIFF_META = "pd-diff-meta";

    // empty
    public static final String EMPTY = "pd-empty";
    public static final String EMPTY_TEXT = "pd-empty-text";
    public static final String EMPTY_TITLE = "pd-empty-title";

    // error
    public static final String ERROR_BOX = "pd-error-box";
    public static final String ERROR_MESSAGE = "pd-error-message";
    public static final String ERROR_SCROLL = "pd-error-scroll";

    // event
    public static final String EVENT_MESSAGE = "pd-event-message";
    public static final String EVENT_TIME = "pd-event-time";

    // events
    public static final String EVENTS = "pd-events";
    public static final String EVENTS_CARD = "pd-events-card";

    // field
    public static final String FIELD_ERROR = "pd-field-error";
    public static final String FIELD_MESSAGE = "pd-field-message";
    public static final String FIELD_OK = "pd-field-ok";
    public static final String FIELD_WARNING = "pd-field-warning";

    // file
    public static final String FILE_OPEN = "pd-file-open";
    public static final String FILE_RESOLVED = "pd-file-resolved";

    // hunk
    public static final String HUNK_CURRENT = "pd-hunk-current";
    public static final String HUNK_RESOLVED = "pd-hunk-resolved";
    public static final String HUNK_UNRESOLVED = "pd-hunk-unresolved";

    // icon
    public static final String ICON = "pd-icon";
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String ICON_PREFIX = "pd-icon-";

    // lineno
    public static final String LINENO = "pd-lineno";
    public static final String LINENO_TEXT = "pd-lineno-text";

    // merge
    public static final String MERGE_BRANCH = "pd-merge-branch";
    public static final String MERGE_QUEUE = "pd-merge-queue";
    public static final String MERGE_REVIEW = "pd-merge-review";
    public static final String MERGE_REVIEW_TITLE = "pd-merge-review-title";
    public static final String MERGE_RUNNING = "pd-merge-running";
    public static final String MERGE_RUNNING_BRANCH = "pd-merge-running-branch";
    public static final String MERGE_SANDBOX = "pd-merge-sandbox";
    public static final String MERGE_SCROLL = "pd-merge-scroll";
    public static final String MERGE_SECTION = "pd-merge-section";
    public static final String MERGE_TIME = "pd-merge-time";

    // mono
    public static final String MONO = "pd-mono";
    public static final String MONO_COLUMN = "pd-mono-column";

    // sandbox
    /** Prefix of a sandbox's colour class in the charts: {@code pd-sandbox-color0} to {@code 7}. */
    public static final String SANDBOX_COLOR_PREFIX = "pd-sandbox-color";

    public static final String SANDBOX_ID = "pd-sandbox-id";
    public static final String SANDBOX_SPLIT = "pd-sandbox-split";

    // severity
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String SEVERITY_PREFIX = "pd-severity-";

    public static final String SEVERITY_ERROR = "pd-severity-error";

    // side
    public static final String SIDE = "pd-side";
    public static final String SIDE_RAIL = "pd-side-rail";
    public static final String SIDE_RAIL_COUNT = "pd-side-rail-count";
    public static final String SIDE_RAIL_WAITING = "pd-side-rail-waiting";

    // state
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String STATE_PREFIX = "pd-state-";

    public static final String STATE_CHIP_ROWS = "pd-state-chip-rows";

    // step
    public static final String STEP = "pd-step";
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String STEP_PREFIX = "pd-step-";

    // threeway
    public static final String THREEWAY = "pd-threeway";
    public static final String THREEWAY_FILES = "pd-threeway-files";
    public static final String THREEWAY_HEADER = "pd-threeway-header";
    public static final String THREEWAY_HUNK = "pd-threeway-hunk";
    public static final String THREEWAY_HUNKBAR = "pd-threeway-hunkbar";
    public static final String THREEWAY_MERGED = "pd-threeway-merged";
    public static final String THREEWAY_TITLE = "pd-threeway-title";
    public static final String THREEWAY_WHOLEFILE = "pd-threeway-wholefile";

    // tile
    public static final String TILE = "pd-tile";
    /** Prefix of a family of classes whose last part is computed (the sheets list each). */
    public static final String TILE_PREFIX = "pd-tile-";

    public static final String TILE_ACCENT = "pd-tile-accent";
    public static final String TILE_ICON = "pd-tile-icon";
    public static final String TILE_LABEL = "pd-tile-label";
    public static final String TILE_VALUE = "pd-tile-value";

    // toast
    public static final String TOAST = "pd-toast";
    public static final String TOAST_CLOSE = "pd-toast-close";
    public static final String TOAST_SUMMARY = "pd-toast-summary";
    public static final String TOAST_TEXT = "pd-toast-text";
    public static final String TOAST_TITLE = "pd-toast-title";

    // transcript
    public static final String TRANSCRIPT = "pd-transcript";
    public static final String TRANSCRIPT_AGENT = "pd-transcript-agent";
    public static final String TRANSCRIPT_BODY = "pd-transcript-body";
    public static final String TRANSCRIPT_CALL = "pd-transcript-call";
    public static final String TRANSCRIPT_CELL = "pd-transcript-cell";
    public static final String TRANSCRIPT_DECISION = "pd-transcript-decision";
    public static final String TRANSCRIPT_ERROR = "pd-transcript-error";
    public static final String TRANSCRIPT_KIND = "pd-transcript-kind";
    public static final String TRANSCRIPT_MARKER = "pd-transcript-marker";
    public static final String TRANSCRIPT_MORE = "pd-transcript-more";
    public static final String TRANSCRIPT_QUIET = "pd-transcript-quiet";
    public static final String TRANSCRIPT_REASON = "pd-transcript-reason";
    public static final String TRANSCRIPT_RESULT = "pd-transcript-result";
    public static final String TRANSCRIPT_TOOL = "pd-transcript-tool";

    // upper
    public static final String UPPER = "pd-upper";
    public static final String UPPER_SPLIT = "pd-upper-split";

    // welcome
    public static final String WELCOME = "pd-welcome";
    public static final String WELCOME_SUBTITLE = "pd-welcome-subtitle";
    public static final String WELCOME_TEXT = "pd-welcome-text";
    public static final String WELCOME_TITLE = "pd-welcome-title";

    private Style() {}
}
