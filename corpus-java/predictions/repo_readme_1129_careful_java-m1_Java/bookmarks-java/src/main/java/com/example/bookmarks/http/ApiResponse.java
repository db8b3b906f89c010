package com.example.bookmarks.http;

import java.util.LinkedHashMap;
import java.util.Map;

/** Status, optional JSON body (any Jackson-serialisable value) and extra headers. */
public final class ApiResponse {

    private final int status;
    private final Object body;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private ApiResponse(int status, Object body) {
        this.status = status;
        this.body = body;
    }

    public static ApiResponse ok(Object body) {
        return new ApiResponse(200, body);
    }

    public static ApiResponse created(Object body) {
        return new ApiResponse(201, body);
    }

    public static ApiResponse noContent() {
        return new ApiResponse(204, null);
    }

    public static ApiResponse of(int status, Object body) {
        return new ApiResponse(status, body);
    }

    public ApiResponse header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public int status() {
        return status;
    }

    /** Body to serialise as JSON, or {@code null} for an empty body. */
    public Object body() {
        return body;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
