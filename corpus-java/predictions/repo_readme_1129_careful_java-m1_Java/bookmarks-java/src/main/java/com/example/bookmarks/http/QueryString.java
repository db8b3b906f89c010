package com.example.bookmarks.http;

import com.example.bookmarks.error.BadRequestException;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a raw query string. Done by hand (rather than via the servlet parameter API) so that
 * form-encoded request bodies are never consumed as parameters.
 */
final class QueryString {

    private QueryString() {
    }

    static Map<String, List<String>> parse(String raw) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return result;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            result.computeIfAbsent(decode(name), k -> new ArrayList<>()).add(decode(value));
        }
        return result;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("malformed query string");
        }
    }
}
