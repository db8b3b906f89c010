package com.example.bookmarks.api;

import com.example.bookmarks.error.NotFoundException;

/** Parses numeric resource ids from path segments; anything else is a 404. */
final class PathIds {

    private PathIds() {
    }

    static long parse(String raw, String notFoundMessage) {
        if (raw == null || raw.isEmpty() || raw.length() > 18) {
            throw new NotFoundException(notFoundMessage);
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < '0' || c > '9') {
                throw new NotFoundException(notFoundMessage);
            }
        }
        return Long.parseLong(raw);
    }
}
