package com.example.bookmarks.http;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** A method plus a path template such as {@code /bookmarks/{id}}. */
public final class Route {

    private final String method;
    private final String template;
    private final List<String> segments;
    private final RouteHandler handler;

    public Route(String method, String template, RouteHandler handler) {
        this.method = method.toUpperCase(Locale.ROOT);
        this.template = template;
        this.segments = Router.split(template);
        this.handler = handler;
    }

    public String method() {
        return method;
    }

    public String template() {
        return template;
    }

    public RouteHandler handler() {
        return handler;
    }

    /** Matches the path segments against the template, returning captured placeholders. */
    public Optional<Map<String, String>> match(List<String> pathSegments) {
        if (pathSegments.size() != segments.size()) {
            return Optional.empty();
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            String expected = segments.get(i);
            String actual = pathSegments.get(i);
            if (isPlaceholder(expected)) {
                params.put(expected.substring(1, expected.length() - 1), actual);
            } else if (!expected.equals(actual)) {
                return Optional.empty();
            }
        }
        return Optional.of(params);
    }

    private static boolean isPlaceholder(String segment) {
        return segment.length() > 2 && segment.startsWith("{") && segment.endsWith("}");
    }

    @Override
    public String toString() {
        return method + " " + template + " " + Arrays.toString(segments.toArray());
    }
}
