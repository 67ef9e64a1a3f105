package dev.paddock.ui.diff;

import dev.paddock.ui.theme.Style;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.swing.text.Segment;
import org.fife.ui.rsyntaxtextarea.FileTypeUtil;
import org.fife.ui.rsyntaxtextarea.SyntaxConstants;
import org.fife.ui.rsyntaxtextarea.Token;
import org.fife.ui.rsyntaxtextarea.TokenMaker;
import org.fife.ui.rsyntaxtextarea.TokenMakerFactory;
import org.fife.ui.rsyntaxtextarea.TokenTypes;

/**
 * Syntax colouring of a file's lines, by RSyntaxTextArea's token makers (only the scanners: no Swing component is
 * made). The language comes from the file's name. A scanner carries its state from line to line (a comment that
 * opens on one line and closes three lines down), so a diff keeps one per side ({@link #scanner}).
 */
final class Syntax {
    /** Names the guesser does not know. */
    private static final Map<String, String> EXTRA = Map.of(
            "rs", SyntaxConstants.SYNTAX_STYLE_RUST,
            "toml", SyntaxConstants.SYNTAX_STYLE_INI,
            "mjs", SyntaxConstants.SYNTAX_STYLE_JAVASCRIPT,
            "cjs", SyntaxConstants.SYNTAX_STYLE_JAVASCRIPT,
            "dockerfile", SyntaxConstants.SYNTAX_STYLE_DOCKERFILE);

    /** Lines longer than this are not scanned (a minified file's one line). */
    static final int MAX_LINE = 2_000;

    private final String language;

    private Syntax(String language) {
        this.language = language;
    }

    /** The syntax of the file at {@code path} (plain text when its kind is not known). */
    static Syntax of(String path) {
        String name = path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        String ext = lower.contains(".") ? lower.substring(lower.lastIndexOf('.') + 1) : lower;
        String language = EXTRA.get(ext);
        if (language == null) {
            language = FileTypeUtil.get().guessContentType(new File(name), true);
        }
        return new Syntax(language == null ? SyntaxConstants.SYNTAX_STYLE_NONE : language);
    }

    /** Whether the file has colours at all. */
    boolean colours() {
        return !SyntaxConstants.SYNTAX_STYLE_NONE.equals(language);
    }

    /** A new scanner, at the start of a file. */
    Scanner scanner() {
        return new Scanner(colours() ? TokenMakerFactory.getDefaultInstance().getTokenMaker(language) : null);
    }

    /** One run of equally coloured characters; {@code style} null: plain. */
    record Span(int length, String style) {}

    /** Scans lines one after another; not thread-safe (one per side per file). */
    static final class Scanner {
        private final TokenMaker maker;
        private int state = TokenTypes.NULL;

        private Scanner(TokenMaker maker) {
            this.maker = maker;
        }

        /** The spans of {@code line} (their lengths add up to its length), after the lines scanned before. */
        List<Span> line(String line) {
            if (maker == null || line.isEmpty() || line.length() > MAX_LINE) {
                return line.isEmpty() ? List.of() : List.of(new Span(line.length(), null));
            }
            char[] chars = line.toCharArray();
            Segment segment = new Segment(chars, 0, chars.length);
            List<Span> spans = new ArrayList<>();
            int covered = 0;
            for (Token t = maker.getTokenList(segment, state, 0); t != null && t.isPaintable(); t = t.getNextToken()) {
                int start = t.getTextOffset();
                int end = Math.min(chars.length, start + t.length());
                if (start > covered) {
                    spans.add(new Span(start - covered, null));
                }
                if (end > start) {
                    add(spans, new Span(end - start, styleOf(t.getType())));
                    covered = end;
                }
            }
            if (covered < chars.length) {
                spans.add(new Span(chars.length - covered, null));
            }
            state = maker.getLastTokenTypeOnLine(new Segment(chars, 0, chars.length), state);
            return spans;
        }

        /** Skips a line the diff does not show (keeps the state a plain line would leave). */
        void reset() {
            state = TokenTypes.NULL;
        }

        private static void add(List<Span> spans, Span s) {
            if (!spans.isEmpty()
                    && java.util.Objects.equals(spans.get(spans.size() - 1).style(), s.style())) {
                Span last = spans.remove(spans.size() - 1);
                spans.add(new Span(last.length() + s.length(), s.style()));
            } else {
                spans.add(s);
            }
        }
    }

    /** The style class of a token type, or null for plain text. */
    static String styleOf(int type) {
        return switch (type) {
            case TokenTypes.COMMENT_EOL,
                    TokenTypes.COMMENT_MULTILINE,
                    TokenTypes.COMMENT_DOCUMENTATION,
                    TokenTypes.COMMENT_KEYWORD,
                    TokenTypes.COMMENT_MARKUP,
                    TokenTypes.MARKUP_COMMENT -> Style.SYN_COMMENT;
            case TokenTypes.RESERVED_WORD, TokenTypes.RESERVED_WORD_2, TokenTypes.PREPROCESSOR -> Style.SYN_KEYWORD;
            case TokenTypes.DATA_TYPE, TokenTypes.MARKUP_TAG_NAME -> Style.SYN_TYPE;
            case TokenTypes.LITERAL_STRING_DOUBLE_QUOTE,
                    TokenTypes.LITERAL_CHAR,
                    TokenTypes.LITERAL_BACKQUOTE,
                    TokenTypes.MARKUP_TAG_ATTRIBUTE_VALUE -> Style.SYN_STRING;
            case TokenTypes.LITERAL_NUMBER_DECIMAL_INT,
                    TokenTypes.LITERAL_NUMBER_FLOAT,
                    TokenTypes.LITERAL_NUMBER_HEXADECIMAL,
                    TokenTypes.LITERAL_BOOLEAN -> Style.SYN_NUMBER;
            case TokenTypes.ANNOTATION, TokenTypes.MARKUP_TAG_ATTRIBUTE, TokenTypes.VARIABLE -> Style.SYN_ANNOTATION;
            case TokenTypes.FUNCTION -> Style.SYN_FUNCTION;
            default -> null;
        };
    }
}
