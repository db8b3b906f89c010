package com.example.bookmarks.api;

import com.example.bookmarks.http.ApiRequest;
import com.example.bookmarks.http.ApiResponse;
import com.example.bookmarks.http.Router;
import com.example.bookmarks.json.JsonCodec;
import com.example.bookmarks.model.Bookmark;
import com.example.bookmarks.model.BookmarkDraft;
import com.example.bookmarks.service.BookmarkService;
import com.example.bookmarks.validation.BookmarkValidator;

/** CRUD endpoints under {@code /bookmarks}. */
public final class BookmarkController {

    private static final String NOT_FOUND = "bookmark not found";

    private final BookmarkService service;
    private final BookmarkValidator validator;
    private final JsonCodec json;

    public BookmarkController(BookmarkService service, BookmarkValidator validator, JsonCodec json) {
        this.service = service;
        this.validator = validator;
        this.json = json;
    }

    public void register(Router router) {
        router.get("/bookmarks", this::list)
              .post("/bookmarks", this::create)
              .get("/bookmarks/{id}", this::get)
              .put("/bookmarks/{id}", this::update)
              .delete("/bookmarks/{id}", this::delete);
    }

    ApiResponse list(ApiRequest request) {
        String tag = request.queryParam("tag").filter(t -> !t.isEmpty()).orElse(null);
        return ApiResponse.ok(service.list(tag));
    }

    ApiResponse create(ApiRequest request) {
        BookmarkDraft draft = readDraft(request);
        Bookmark created = service.create(draft);
        return ApiResponse.created(created).header("Location", "/bookmarks/" + created.id());
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(service.get(id(request)));
    }

    ApiResponse update(ApiRequest request) {
        long id = id(request);
        service.requireExists(id);
        BookmarkDraft draft = readDraft(request);
        return ApiResponse.ok(service.update(id, draft));
    }

    ApiResponse delete(ApiRequest request) {
        service.delete(id(request));
        return ApiResponse.noContent();
    }

    private BookmarkDraft readDraft(ApiRequest request) {
        return validator.validate(json.parse(request.body()));
    }

    private static long id(ApiRequest request) {
        return PathIds.parse(request.pathParam("id"), NOT_FOUND);
    }
}
