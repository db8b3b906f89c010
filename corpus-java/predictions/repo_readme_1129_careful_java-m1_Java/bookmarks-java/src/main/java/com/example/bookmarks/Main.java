package com.example.bookmarks;

import com.example.bookmarks.server.BookmarksServer;

/** Entry point: starts the service on 0.0.0.0:8080 (overridable by the first argument) and blocks. */
public final class Main {

    private static final int DEFAULT_PORT = 8080;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        int port = resolvePort(args);
        BookmarksServer server = Application.create("0.0.0.0", port);
        server.start();
        System.out.println("Bookmarks service listening on port " + server.port());
        server.join();
    }

    private static int resolvePort(String[] args) {
        String raw = args.length > 0 ? args[0] : null;
        if (raw == null || raw.isBlank()) {
            return DEFAULT_PORT;
        }
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            System.err.println("Ignoring invalid port '" + raw + "', using " + DEFAULT_PORT);
            return DEFAULT_PORT;
        }
    }
}
