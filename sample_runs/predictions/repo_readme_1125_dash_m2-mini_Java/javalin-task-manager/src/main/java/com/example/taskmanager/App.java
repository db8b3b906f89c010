package com.example.taskmanager;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

public class App {

    // ---------- models ----------
    public static class User {
        public int id;
        public String username;
        public String email;
        public transient String passwordHash;
    }

    public static class Project {
        public int id;
        public String name;
        public String description;
        public int ownerId;
    }

    public static class Task {
        public int id;
        public String title;
        public String description;
        public String status;
        public int projectId;
        public Integer assigneeId;
    }

    public static class Comment {
        public int id;
        public String content;
        public int taskId;
        public int authorId;
        public String createdAt;
    }

    static class ApiError extends RuntimeException {
        final int status;
        ApiError(int status, String msg) { super(msg); this.status = status; }
    }

    // ---------- storage ----------
    static final Map<Integer, User> users = new ConcurrentHashMap<>();
    static final Map<Integer, Project> projects = new ConcurrentHashMap<>();
    static final Map<Integer, Task> tasks = new ConcurrentHashMap<>();
    static final Map<Integer, Comment> comments = new ConcurrentHashMap<>();
    static final Map<String, Integer> tokens = new ConcurrentHashMap<>();
    static final AtomicInteger userSeq = new AtomicInteger();
    static final AtomicInteger projectSeq = new AtomicInteger();
    static final AtomicInteger taskSeq = new AtomicInteger();
    static final AtomicInteger commentSeq = new AtomicInteger();

    static final Set<String> STATUSES = Set.of("TODO", "IN_PROGRESS", "DONE");

    public static void main(String[] args) {
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "7000"));
        create().start(port);
    }

    public static Javalin create() {
        Javalin app = Javalin.create(cfg -> cfg.showJavalinBanner = false);

        app.exception(ApiError.class, (e, ctx) -> ctx.status(e.status).json(Map.of("error", e.getMessage())));
        app.exception(Exception.class, (e, ctx) -> ctx.status(400).json(Map.of("error", "Bad request: " + e.getMessage())));
        app.error(404, ctx -> { if (ctx.result() == null) ctx.json(Map.of("error", "Not found")); });

        app.post("/users", App::register);
        app.post("/users/login", App::login);
        app.get("/users/{id}/tasks", App::userTasks);

        app.get("/projects", App::listProjects);
        app.post("/projects", App::createProject);
        app.get("/projects/{id}", App::getProject);
        app.put("/projects/{id}", App::updateProject);
        app.delete("/projects/{id}", App::deleteProject);
        app.get("/projects/{id}/tasks", App::listTasks);
        app.post("/projects/{id}/tasks", App::createTask);

        app.get("/tasks/{id}", App::getTask);
        app.put("/tasks/{id}", App::updateTask);
        app.delete("/tasks/{id}", App::deleteTask);
        app.post("/tasks/{id}/comments", App::addComment);
        app.get("/tasks/{id}/comments", App::listComments);
        return app;
    }

    // ---------- helpers ----------
    @SuppressWarnings("unchecked")
    static Map<String, Object> body(Context ctx) {
        try {
            Map<String, Object> m = ctx.bodyAsClass(Map.class);
            if (m == null) throw new ApiError(400, "Invalid JSON body");
            return m;
        } catch (ApiError e) {
            throw e;
        } catch (Exception e) {
            throw new ApiError(400, "Invalid JSON body");
        }
    }

    static String str(Map<String, Object> b, String key, boolean required) {
        Object v = b.get(key);
        if (v == null) {
            if (required) throw new ApiError(400, key + " is required");
            return null;
        }
        if (!(v instanceof String)) throw new ApiError(400, key + " must be a string");
        String s = (String) v;
        if (required && s.isBlank()) throw new ApiError(400, key + " is required");
        return s;
    }

    static Integer intVal(Map<String, Object> b, String key) {
        Object v = b.get(key);
        if (v == null) return null;
        if (v instanceof Number) return ((Number) v).intValue();
        try { return Integer.parseInt(v.toString()); } catch (NumberFormatException e) {
            throw new ApiError(400, key + " must be an integer");
        }
    }

    static int pathId(Context ctx) {
        try { return Integer.parseInt(ctx.pathParam("id")); } catch (NumberFormatException e) {
            throw new ApiError(400, "Invalid id");
        }
    }

    static String hash(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] d = md.digest(s.getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (byte x : d) sb.append(String.format("%02x", x));
            return sb.toString();
        } catch (Exception e) { throw new RuntimeException(e); }
    }

    static User auth(Context ctx) {
        String h = ctx.header("Authorization");
        if (h == null || !h.startsWith("Bearer ")) throw new ApiError(401, "Unauthorized");
        Integer uid = tokens.get(h.substring(7).trim());
        if (uid == null || !users.containsKey(uid)) throw new ApiError(401, "Unauthorized");
        return users.get(uid);
    }

    static Project ownedProject(int id, User u) {
        Project p = projects.get(id);
        if (p == null) throw new ApiError(404, "Project not found");
        if (p.ownerId != u.id) throw new ApiError(403, "Forbidden");
        return p;
    }

    static Task findTask(int id) {
        Task t = tasks.get(id);
        if (t == null) throw new ApiError(404, "Task not found");
        return t;
    }

    static void checkTaskAccess(Task t, User u) {
        Project p = projects.get(t.projectId);
        boolean owner = p != null && p.ownerId == u.id;
        boolean assignee = t.assigneeId != null && t.assigneeId == u.id;
        if (!owner && !assignee) throw new ApiError(403, "Forbidden");
    }

    // ---------- users ----------
    static void register(Context ctx) {
        Map<String, Object> b = body(ctx);
        String username = str(b, "username", true);
        String email = str(b, "email", true);
        String password = str(b, "password", true);
        if (!email.contains("@")) throw new ApiError(400, "Invalid email");
        synchronized (users) {
            for (User u : users.values()) {
                if (u.email.equalsIgnoreCase(email) || u.username.equals(username))
                    throw new ApiError(409, "User already exists");
            }
            User u = new User();
            u.id = userSeq.incrementAndGet();
            u.username = username;
            u.email = email;
            u.passwordHash = hash(password);
            users.put(u.id, u);
            ctx.status(HttpStatus.CREATED).json(Map.of("id", u.id, "username", u.username, "email", u.email));
        }
    }

    static void login(Context ctx) {
        Map<String, Object> b = body(ctx);
        String email = str(b, "email", true);
        String password = str(b, "password", true);
        User found = users.values().stream().filter(u -> u.email.equalsIgnoreCase(email)).findFirst().orElse(null);
        if (found == null || !found.passwordHash.equals(hash(password))) throw new ApiError(401, "Invalid credentials");
        String token = UUID.randomUUID().toString().replace("-", "") + UUID.randomUUID().toString().replace("-", "");
        tokens.put(token, found.id);
        ctx.json(Map.of("token", token));
    }

    static void userTasks(Context ctx) {
        auth(ctx);
        int uid = pathId(ctx);
        if (!users.containsKey(uid)) throw new ApiError(404, "User not found");
        List<Task> list = tasks.values().stream()
                .filter(t -> t.assigneeId != null && t.assigneeId == uid)
                .sorted(Comparator.comparingInt(t -> t.id))
                .collect(Collectors.toList());
        ctx.json(list);
    }

    // ---------- projects ----------
    static void listProjects(Context ctx) {
        User u = auth(ctx);
        List<Project> list = projects.values().stream()
                .filter(p -> p.ownerId == u.id)
                .sorted(Comparator.comparingInt(p -> p.id))
                .collect(Collectors.toList());
        ctx.json(list);
    }

    static void createProject(Context ctx) {
        User u = auth(ctx);
        Map<String, Object> b = body(ctx);
        Project p = new Project();
        p.name = str(b, "name", true);
        String d = str(b, "description", false);
        p.description = d == null ? "" : d;
        p.ownerId = u.id;
        p.id = projectSeq.incrementAndGet();
        projects.put(p.id, p);
        ctx.status(HttpStatus.CREATED).json(p);
    }

    static void getProject(Context ctx) {
        User u = auth(ctx);
        ctx.json(ownedProject(pathId(ctx), u));
    }

    static void updateProject(Context ctx) {
        User u = auth(ctx);
        Project p = ownedProject(pathId(ctx), u);
        Map<String, Object> b = body(ctx);
        String name = str(b, "name", false);
        String desc = str(b, "description", false);
        if (name != null) {
            if (name.isBlank()) throw new ApiError(400, "name must not be empty");
            p.name = name;
        }
        if (desc != null) p.description = desc;
        ctx.json(p);
    }

    static void deleteProject(Context ctx) {
        User u = auth(ctx);
        Project p = ownedProject(pathId(ctx), u);
        projects.remove(p.id);
        List<Integer> taskIds = tasks.values().stream().filter(t -> t.projectId == p.id).map(t -> t.id).collect(Collectors.toList());
        for (Integer tid : taskIds) {
            tasks.remove(tid);
            comments.values().removeIf(c -> c.taskId == tid);
        }
        ctx.status(HttpStatus.NO_CONTENT);
    }

    // ---------- tasks ----------
    static void listTasks(Context ctx) {
        User u = auth(ctx);
        Project p = ownedProject(pathId(ctx), u);
        List<Task> list = tasks.values().stream()
                .filter(t -> t.projectId == p.id)
                .sorted(Comparator.comparingInt(t -> t.id))
                .collect(Collectors.toList());
        ctx.json(list);
    }

    static void createTask(Context ctx) {
        User u = auth(ctx);
        Project p = ownedProject(pathId(ctx), u);
        Map<String, Object> b = body(ctx);
        Task t = new Task();
        t.title = str(b, "title", true);
        String d = str(b, "description", false);
        t.description = d == null ? "" : d;
        String status = str(b, "status", false);
        if (status != null && !STATUSES.contains(status)) throw new ApiError(400, "Invalid status");
        t.status = status == null ? "TODO" : status;
        Integer assignee = intVal(b, "assigneeId");
        if (assignee != null && !users.containsKey(assignee)) throw new ApiError(400, "Assignee not found");
        t.assigneeId = assignee;
        t.projectId = p.id;
        t.id = taskSeq.incrementAndGet();
        tasks.put(t.id, t);
        ctx.status(HttpStatus.CREATED).json(t);
    }

    static void getTask(Context ctx) {
        User u = auth(ctx);
        Task t = findTask(pathId(ctx));
        checkTaskAccess(t, u);
        ctx.json(t);
    }

    static void updateTask(Context ctx) {
        User u = auth(ctx);
        Task t = findTask(pathId(ctx));
        checkTaskAccess(t, u);
        Map<String, Object> b = body(ctx);
        String title = str(b, "title", false);
        String desc = str(b, "description", false);
        String status = str(b, "status", false);
        Integer assignee = intVal(b, "assigneeId");
        if (title != null) {
            if (title.isBlank()) throw new ApiError(400, "title must not be empty");
            t.title = title;
        }
        if (desc != null) t.description = desc;
        if (status != null) {
            if (!STATUSES.contains(status)) throw new ApiError(400, "Invalid status");
            t.status = status;
        }
        if (assignee != null) {
            if (!users.containsKey(assignee)) throw new ApiError(400, "Assignee not found");
            t.assigneeId = assignee;
        }
        ctx.json(t);
    }

    static void deleteTask(Context ctx) {
        User u = auth(ctx);
        Task t = findTask(pathId(ctx));
        checkTaskAccess(t, u);
        tasks.remove(t.id);
        comments.values().removeIf(c -> c.taskId == t.id);
        ctx.status(HttpStatus.NO_CONTENT);
    }

    // ---------- comments ----------
    static void addComment(Context ctx) {
        User u = auth(ctx);
        Task t = findTask(pathId(ctx));
        checkTaskAccess(t, u);
        Map<String, Object> b = body(ctx);
        Comment c = new Comment();
        c.content = str(b, "content", true);
        c.taskId = t.id;
        c.authorId = u.id;
        c.createdAt = Instant.now().toString();
        c.id = commentSeq.incrementAndGet();
        comments.put(c.id, c);
        ctx.status(HttpStatus.CREATED).json(c);
    }

    static void listComments(Context ctx) {
        User u = auth(ctx);
        Task t = findTask(pathId(ctx));
        checkTaskAccess(t, u);
        List<Comment> list = comments.values().stream()
                .filter(c -> c.taskId == t.id)
                .sorted(Comparator.comparingInt(c -> c.id))
                .collect(Collectors.toList());
        ctx.json(list);
    }
}
