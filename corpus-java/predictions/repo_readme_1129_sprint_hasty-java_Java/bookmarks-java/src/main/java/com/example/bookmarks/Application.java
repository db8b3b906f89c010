package com.example.bookmarks;

import com.example.bookmarks.controller.BookmarkController;
import com.example.bookmarks.repository.BookmarkRepository;
import com.example.bookmarks.service.BookmarkService;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import java.net.InetSocketAddress;

public final class Application {

    private static final int PORT = 8080;

    private Application() {
    }

    public static void main(String[] args) throws Exception {
        BookmarkRepository repository = new BookmarkRepository();
        BookmarkService service = new BookmarkService(repository);

        Server server = new Server(new InetSocketAddress("0.0.0.0", PORT));
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new BookmarkController(service)), "/*");
        server.setHandler(context);
        server.setStopAtShutdown(true);
        server.start();
        server.join();
    }
}
