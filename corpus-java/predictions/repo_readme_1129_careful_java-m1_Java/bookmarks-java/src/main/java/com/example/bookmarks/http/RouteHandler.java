package com.example.bookmarks.http;

/** Handles a request that matched a route. May throw {@link com.example.bookmarks.error.ApiException}. */
@FunctionalInterface
public interface RouteHandler {

    ApiResponse handle(ApiRequest request);
}
