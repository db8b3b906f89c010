package com.example.bookmarks.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Framework-neutral view of an incoming request, handed to route handlers. */
public final class ApiRequest {

    private final String method;
    private final String path;
    private final Map<String, String> pathParams;
    private final Map<String, List<String>> queryParams;
    private final byte[] body;

    public ApiRequest(String method, String path, Map<String, String> pathParams,
                      Map<String, List<String>> queryParams, byte[] body) {
        this.method = method;
        this.path = path;
        this.pathParams = Map.copyOf(pathParams);
        this.queryParams = Map.copyOf(queryParams);
        this.body = body == null ? new byte[0] : body;
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    /** Value of a {@code {name}} placeholder of the matched route. */
    public String pathParam(String name) {
        String value = pathParams.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no path parameter " + name);
        }
        return value;
    }

    /** First value of a query parameter, if present. */
    public Optional<String> queryParam(String name) {
        List<String> values = queryParams.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    public byte[] body() {
        return body;
    }
}
