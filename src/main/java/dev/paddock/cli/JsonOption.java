package dev.paddock.cli;

import picocli.CommandLine.Option;

/**
 * {@code --json}, mixed into every command that can print what it shows as JSON (the shape the API answers). Which
 * API answer each command's JSON matches is in {@code OptionTexts.properties} (key: the command's full name, then
 * {@code .json}).
 */
public final class JsonOption {
    @Option(names = "--json", descriptionKey = "json", description = "Print JSON (as the API answers).")
    boolean json;

    /** Whether {@code --json} was given. */
    boolean on() {
        return json;
    }
}
