package com.example.bookmarks.http;

import com.example.bookmarks.error.MethodNotAllowedException;
import com.example.bookmarks.error.NotFoundException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Resolves (method, path) pairs to handlers; yields 404 or 405 when nothing fits. */
public final class Router {

    private final List<Route> routes = new ArrayList<>();

    public Router add(String method, String template, RouteHandler handler) {
        routes.add(new Route(method, template, handler));
        return this;
    }

    public Router get(String template, RouteHandler handler) {
        return add("GET", template, handler);
    }

    public Router post(String template, RouteHandler handler) {
        return add("POST", template, handler);
    }

    public Router put(String template, RouteHandler handler) {
        return add("PUT", template, handler);
    }

    public Router delete(String template, RouteHandler handler) {
        return add("DELETE", template, handler);
    }

    /** A resolved route together with its captured path parameters. */
    public record Match(RouteHandler handler, Map<String, String> pathParams) {
    }

    public Match resolve(String method, String path) {
        String wanted = method.toUpperCase(Locale.ROOT);
        List<String> segments = split(path);
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Optional<Map<String, String>> params = route.match(segments);
            if (params.isEmpty()) {
                continue;
            }
            if (route.method().equals(wanted)) {
                return new Match(route.handler(), params.get());
            }
            allowed.add(route.method());
        }
        if (!allowed.isEmpty()) {
            throw new MethodNotAllowedException(allowed);
        }
        throw new NotFoundException("not found");
    }

    /** Splits a path into its segments, ignoring a leading and a single trailing slash. */
    static List<String> split(String path) {
        String p = path == null ? "" : path;
        if (p.startsWith("/")) {
            p = p.substring(1);
        }
        if (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.isEmpty()) {
            return List.of();
        }
        return Arrays.asList(p.split("/", -1));
    }
}
