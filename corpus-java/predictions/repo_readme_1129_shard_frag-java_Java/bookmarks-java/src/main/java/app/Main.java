package app;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Entry point: wires the in-memory store to the HTTP handler and starts the
 * JDK built-in HTTP server on 0.0.0.0:8080 (blocking in the foreground).
 */
public final class Main {

    public static final int PORT = 8080;

    private Main() {
    }

    public static void main(String[] args) throws IOException {
        int port = PORT;
        String envPort = System.getenv("PORT");
        if (envPort != null && !envPort.isBlank()) {
            try {
                port = Integer.parseInt(envPort.trim());
            } catch (NumberFormatException ignored) {
                port = PORT;
            }
        }

        BookmarkStore store = new BookmarkStore();
        BookmarkHandler handler = new BookmarkHandler(store);

        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 0);
        server.createContext("/", handler);

        ExecutorService executor = Executors.newFixedThreadPool(16);
        server.setExecutor(executor);

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            executor.shutdownNow();
        }));

        server.start();
        System.out.println("Bookmarks service listening on 0.0.0.0:" + port);
    }
}
