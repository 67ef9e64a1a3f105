package dev.paddock.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code paddock --version}: the version from the jar manifest, or "development" when run from classes. */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {
            "Paddock " + (v == null ? "development" : v),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
