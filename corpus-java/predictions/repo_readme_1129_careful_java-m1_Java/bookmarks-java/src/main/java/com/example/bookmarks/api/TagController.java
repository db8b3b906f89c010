package com.example.bookmarks.api;

import com.example.bookmarks.http.ApiRequest;
import com.example.bookmarks.http.ApiResponse;
import com.example.bookmarks.http.Router;
import com.example.bookmarks.service.BookmarkService;

/** {@code GET /tags}: usage counts per tag. */
public final class TagController {

    private final BookmarkService service;

    public TagController(BookmarkService service) {
        this.service = service;
    }

    public void register(Router router) {
        router.get("/tags", this::tagCounts);
    }

    ApiResponse tagCounts(ApiRequest request) {
        return ApiResponse.ok(service.tagCounts());
    }
}
