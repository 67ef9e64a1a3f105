package dev.paddock.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Test helper run as a separate JVM: opens the store at {@code args[0]} (a database base path), prints
 * {@code OPEN} on stdout, holds the store until its stdin reaches end of file, then closes it and
 * prints {@code CLOSED}. When the open fails it prints {@code FAILED <exception class>: <message>}
 * and exits with 3.
 */
public final class HoldStore {
    private HoldStore() {}

    public static void main(String[] args) throws IOException {
        Database db;
        try {
            db = Database.open(Path.of(args[0]));
        } catch (StoreException e) {
            System.out.println("FAILED " + e.getClass().getName() + ": " + e.getMessage());
            System.out.flush();
            System.exit(3);
            return;
        }
        System.out.println("OPEN");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold until the test closes our stdin (or dies)
        }
        db.close();
        System.out.println("CLOSED");
        System.out.flush();
    }
}
