package com.example.bookmarks;

import com.example.bookmarks.api.BookmarkController;
import com.example.bookmarks.api.HealthController;
import com.example.bookmarks.api.TagController;
import com.example.bookmarks.http.ApiServlet;
import com.example.bookmarks.http.Router;
import com.example.bookmarks.json.JsonCodec;
import com.example.bookmarks.server.BookmarksServer;
import com.example.bookmarks.service.BookmarkService;
import com.example.bookmarks.store.InMemoryBookmarkStore;
import com.example.bookmarks.validation.BookmarkValidator;

import java.time.Clock;

/** Wires the object graph together (composition root). */
public final class Application {

    private Application() {
    }

    public static BookmarksServer create(String host, int port) {
        JsonCodec json = new JsonCodec();
        BookmarkService service = new BookmarkService(new InMemoryBookmarkStore(), Clock.systemUTC());

        Router router = new Router();
        new HealthController().register(router);
        new BookmarkController(service, new BookmarkValidator(), json).register(router);
        new TagController(service).register(router);

        return new BookmarksServer(host, port, new ApiServlet(router, json), json);
    }
}
