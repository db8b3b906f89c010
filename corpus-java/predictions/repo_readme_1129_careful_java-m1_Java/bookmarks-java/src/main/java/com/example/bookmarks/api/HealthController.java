package com.example.bookmarks.api;

import com.example.bookmarks.http.ApiRequest;
import com.example.bookmarks.http.ApiResponse;
import com.example.bookmarks.http.Router;

import java.util.Map;

/** {@code GET /health}. */
public final class HealthController {

    public void register(Router router) {
        router.get("/health", this::health);
    }

    ApiResponse health(ApiRequest request) {
        return ApiResponse.ok(Map.of("status", "ok"));
    }
}
