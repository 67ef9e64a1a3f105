package dev.paddock.common;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import java.util.List;

/**
 * Paddock's logging set-up, in code rather than {@code logback.xml}: Logback's XML configurator
 * costs about half a second at start-up, which the panel's first frame cannot afford.
 *
 * <p>Writes INFO and above to {@code <home>/logs/paddock.log} (rolled daily and at 10 MB, 14 days,
 * 200 MB in all) and ERROR lines to stderr. The log and its directory are owner-only (600, 700): each log file
 * is created with that mode before Logback opens it, and rolled files are renamed, not compressed, so they keep
 * it (Logback's compressor would write a new file with the process's umask); stdout stays clean for commands that print JSON. The
 * home is the system property {@code paddock.home}, set by the launcher before anything logs, else
 * {@code $PADDOCK_HOME}, else {@code ~/.paddock}. When a {@code logback-test.xml} is on the class
 * path (the tests) it steps aside and Logback reads that file instead.
 *
 * <p>The appenders are built on the first event, not at start: a command that logs nothing (most CLI calls to a
 * running Paddock) does not pay for them.
 *
 * <p>Registered through {@code META-INF/services/ch.qos.logback.classic.spi.Configurator}.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    private static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{30} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext ctx) {
        if (LogConfigurator.class.getResource("/logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        for (String noisy : new String[] {
            "org.flywaydb", "com.github.dockerjava", "org.apache.hc", "org.eclipse.jgit", "com.zaxxer.hikari"
        }) {
            ctx.getLogger(noisy).setLevel(Level.WARN);
        }
        FirstEvent first = new FirstEvent(() -> appenders(ctx));
        first.setContext(ctx);
        first.setName("FIRST-EVENT");
        first.start();
        root.addAppender(first);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /**
     * Builds the file and stderr appenders, the costly part of the set-up (a rolling policy that looks at the log
     * folder, pattern parsing: a quarter to half a second on 2 cores before the JIT is warm).
     */
    private List<Appender<ILoggingEvent>> appenders(LoggerContext ctx) {
        Path logDir = home().resolve("logs");
        try {
            PrivateFiles.createDirectories(logDir);
        } catch (java.io.IOException e) {
            addWarn("Cannot create " + logDir + ": " + e.getMessage());
        }
        RollingFileAppender<ILoggingEvent> file = new OwnerOnlyFileAppender();
        file.setContext(ctx);
        file.setName("FILE");
        file.setFile(logDir.resolve("paddock.log").toString());
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(ctx);
        policy.setParent(file);
        policy.setFileNamePattern(
                logDir.resolve("paddock.%d{yyyy-MM-dd}.%i.log").toString());
        policy.setMaxFileSize(FileSize.valueOf("10MB"));
        policy.setMaxHistory(14);
        policy.setTotalSizeCap(FileSize.valueOf("200MB"));
        policy.start();
        file.setRollingPolicy(policy);
        file.setEncoder(encoder(ctx, PATTERN));
        file.start();

        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(ctx);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        ThresholdFilter errorsOnly = new ThresholdFilter();
        errorsOnly.setLevel("ERROR");
        errorsOnly.start();
        stderr.addFilter(errorsOnly);
        // Flyway's "Migration ... failed! Please restore backups ..." is for people running Flyway by hand: Paddock
        // puts its own backup back and says so in one line (docs/decisions/0007); the file log keeps Flyway's words.
        ch.qos.logback.core.filter.Filter<ILoggingEvent> notFlyway = new ch.qos.logback.core.filter.Filter<>() {
            @Override
            public ch.qos.logback.core.spi.FilterReply decide(ILoggingEvent event) {
                return event.getLoggerName().startsWith("org.flywaydb")
                        ? ch.qos.logback.core.spi.FilterReply.DENY
                        : ch.qos.logback.core.spi.FilterReply.NEUTRAL;
            }
        };
        notFlyway.start();
        stderr.addFilter(notFlyway);
        stderr.setEncoder(encoder(ctx, "paddock: %msg%n%nopex")); // one line; the trace is in the file
        stderr.start();
        return List.of(file, stderr);
    }

    /**
     * The root logger's one appender until something is logged: it builds the real appenders on the first event
     * (so a CLI call that logs nothing never pays for them), puts them on the root logger in its place, and hands
     * them that first event. Events of other threads meanwhile wait for the set-up and go the same way.
     */
    static final class FirstEvent extends UnsynchronizedAppenderBase<ILoggingEvent> {
        private final java.util.function.Supplier<List<Appender<ILoggingEvent>>> build;
        private volatile List<Appender<ILoggingEvent>> built;

        FirstEvent(java.util.function.Supplier<List<Appender<ILoggingEvent>>> build) {
            this.build = build;
        }

        @Override
        protected void append(ILoggingEvent event) {
            List<Appender<ILoggingEvent>> real = built;
            if (real == null) {
                synchronized (this) {
                    real = built;
                    if (real == null) {
                        real = build.get();
                        Logger root = ((LoggerContext) getContext()).getLogger(Logger.ROOT_LOGGER_NAME);
                        real.forEach(root::addAppender);
                        built = real;
                        root.detachAppender(this);
                    }
                }
            }
            for (Appender<ILoggingEvent> a : real) {
                a.doAppend(event);
            }
        }
    }

    /** A rolling appender whose every (re)opened file is created with mode 600 first. */
    static final class OwnerOnlyFileAppender extends RollingFileAppender<ILoggingEvent> {
        @Override
        public void openFile(String fileName) throws java.io.IOException {
            PrivateFiles.createFile(Path.of(fileName));
            super.openFile(fileName);
        }
    }

    private static PatternLayoutEncoder encoder(LoggerContext ctx, String pattern) {
        PatternLayoutEncoder e = new PatternLayoutEncoder();
        e.setContext(ctx);
        e.setPattern(pattern);
        e.start();
        return e;
    }

    private static Path home() {
        String prop = System.getProperty("paddock.home");
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String env = System.getenv("PADDOCK_HOME");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".paddock");
    }
}
