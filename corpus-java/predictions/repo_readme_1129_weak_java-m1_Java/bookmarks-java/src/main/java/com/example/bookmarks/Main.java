package com.example.bookmarks;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

public class Main {

    public static void main(String[] args) throws Exception {
        Server server = new Server(8080);

        BookmarkStore store = new BookmarkStore();

        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SESSIONS);
        context.setContextPath("/");
        server.setHandler(context);

        context.addServlet(new ServletHolder(new HealthServlet()), "/health");
        context.addServlet(new ServletHolder(new BookmarkServlet(store)), "/bookmarks/*");
        context.addServlet(new ServletHolder(new TagsServlet(store)), "/tags");

        server.start();
        System.out.println("Bookmarks service started on port 8080");
        server.join();
    }
}
