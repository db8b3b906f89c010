package com.example.dashboard;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import spark.Request;
import spark.Response;

import java.time.Instant;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;

import static spark.Spark.*;

public class App {

    static final Gson gson = new GsonBuilder().serializeNulls().create();

    static class ApiException extends RuntimeException {
        final int status;
        ApiException(int status, String msg) { super(msg); this.status = status; }
    }

    static class User {
        String id, username, email, password, role, updatedAt;
    }

    // in-memory stores (LinkedHashMap-backed, synchronized)
    static final Map<String, User> usersById = new ConcurrentHashMap<>();
    static final Map<String, User> usersByName = new ConcurrentHashMap<>();
    static final Map<String, String> tokens = new ConcurrentHashMap<>();
    static final Map<String, Map<String, Object>> dashboards = Collections.synchronizedMap(new LinkedHashMap<>());
    static final Map<String, Map<String, Object>> widgets = Collections.synchronizedMap(new LinkedHashMap<>());
    static final Map<String, Map<String, Object>> datasources = Collections.synchronizedMap(new LinkedHashMap<>());
    static final Map<String, Map<String, Object>> datasets = Collections.synchronizedMap(new LinkedHashMap<>());

    public static void main(String[] args) {
        seed();
        int p = Integer.parseInt(System.getenv().getOrDefault("PORT", "4567"));
        port(p);

        before((req, res) -> res.type("application/json"));

        exception(ApiException.class, (e, req, res) -> {
            res.status(e.status);
            res.type("application/json");
            res.body(gson.toJson(Map.of("error", e.getMessage())));
        });
        exception(Exception.class, (e, req, res) -> {
            res.status(500);
            res.type("application/json");
            res.body(gson.toJson(Map.of("error", "Internal server error: " + e.getMessage())));
        });
        notFound((req, res) -> { res.type("application/json"); return gson.toJson(Map.of("error", "Not found")); });

        post("/api/login", App::login);

        get("/api/dashboards", (req, res) -> {
            List<Map<String, Object>> out = new ArrayList<>();
            synchronized (dashboards) {
                for (Map<String, Object> d : dashboards.values()) out.add(dashboardSummary(d));
            }
            return gson.toJson(out);
        });
        post("/api/dashboards", App::createDashboard);
        get("/api/dashboards/:id", (req, res) -> gson.toJson(dashboardDetail(findDashboard(req.params(":id")))));
        put("/api/dashboards/:id", App::updateDashboard);
        delete("/api/dashboards/:id", (req, res) -> {
            Map<String, Object> d = findDashboard(req.params(":id"));
            dashboards.remove((String) d.get("id"));
            synchronized (widgets) {
                widgets.values().removeIf(w -> d.get("id").equals(w.get("dashboard_id")));
            }
            return gson.toJson(Map.of("message", "Dashboard deleted successfully"));
        });

        post("/api/dashboards/:id/widgets", App::addWidget);
        put("/api/widgets/:id", App::updateWidget);
        delete("/api/widgets/:id", (req, res) -> {
            String id = req.params(":id");
            if (widgets.remove(id) == null) throw new ApiException(404, "Widget not found");
            return gson.toJson(Map.of("message", "Widget deleted successfully"));
        });

        get("/api/datasources", (req, res) -> {
            synchronized (datasources) { return gson.toJson(new ArrayList<>(datasources.values())); }
        });
        post("/api/datasources", App::createDatasource);

        get("/api/datasets", (req, res) -> {
            synchronized (datasets) { return gson.toJson(new ArrayList<>(datasets.values())); }
        });

        post("/api/query", App::executeQuery);

        get("/api/users/me", (req, res) -> {
            User u = auth(req);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", u.id);
            m.put("username", u.username);
            m.put("email", u.email);
            m.put("role", u.role);
            return gson.toJson(m);
        });
        put("/api/users/me", App::updateMe);

        awaitInitialization();
    }

    // ------------------------------------------------------------------
    static void seed() {
        addUser("admin", "admin123", "admin@example.com", "admin");
        addUser("user", "password", "user@example.com", "user");

        Map<String, Object> ds = new LinkedHashMap<>();
        ds.put("id", "ds-1");
        ds.put("name", "Sales Database");
        ds.put("type", "postgresql");
        ds.put("connection_details", new LinkedHashMap<>(Map.of("url", "jdbc:postgresql://localhost:5432/sales", "username", "reporter")));
        ds.put("created_at", now());
        datasources.put("ds-1", ds);

        Map<String, Object> set1 = new LinkedHashMap<>();
        set1.put("id", "dataset-1");
        set1.put("name", "Monthly Sales");
        set1.put("datasource_id", "ds-1");
        set1.put("query", "SELECT month, region, revenue FROM sales");
        datasets.put("dataset-1", set1);

        Map<String, Object> set2 = new LinkedHashMap<>();
        set2.put("id", "dataset-2");
        set2.put("name", "Active Users");
        set2.put("datasource_id", "ds-1");
        set2.put("query", "SELECT day, active_users FROM activity");
        datasets.put("dataset-2", set2);
    }

    static User addUser(String username, String password, String email, String role) {
        User u = new User();
        u.id = UUID.randomUUID().toString();
        u.username = username;
        u.password = password;
        u.email = email;
        u.role = role;
        u.updatedAt = now();
        usersById.put(u.id, u);
        usersByName.put(username, u);
        return u;
    }

    static String now() { return Instant.now().toString(); }

    static JsonObject body(Request req) {
        String b = req.body();
        if (b == null || b.isBlank()) throw new ApiException(400, "Request body is required");
        try {
            JsonElement el = JsonParser.parseString(b);
            if (!el.isJsonObject()) throw new ApiException(400, "Request body must be a JSON object");
            return el.getAsJsonObject();
        } catch (ApiException e) {
            throw e;
        } catch (Exception e) {
            throw new ApiException(400, "Invalid JSON");
        }
    }

    static String optString(JsonObject o, String key) {
        if (!o.has(key) || o.get(key).isJsonNull()) return null;
        JsonElement e = o.get(key);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString())
            throw new ApiException(400, key + " must be a string");
        return e.getAsString();
    }

    static String reqString(JsonObject o, String key) {
        String s = optString(o, key);
        if (s == null || s.isBlank()) throw new ApiException(400, key + " is required");
        return s;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> optObject(JsonObject o, String key) {
        if (!o.has(key) || o.get(key).isJsonNull()) return null;
        if (!o.get(key).isJsonObject()) throw new ApiException(400, key + " must be an object");
        return gson.fromJson(o.get(key), LinkedHashMap.class);
    }

    static User auth(Request req) {
        String h = req.headers("Authorization");
        if (h == null || !h.startsWith("Bearer ")) throw new ApiException(401, "Unauthorized");
        String uid = tokens.get(h.substring(7).trim());
        if (uid == null || !usersById.containsKey(uid)) throw new ApiException(401, "Unauthorized");
        return usersById.get(uid);
    }

    // ------------------------------------------------------------------
    static Object login(Request req, Response res) {
        JsonObject b = body(req);
        String username = reqString(b, "username");
        String password = reqString(b, "password");
        User u = usersByName.get(username);
        if (u == null || !u.password.equals(password)) throw new ApiException(401, "Invalid username or password");
        String token = UUID.randomUUID().toString();
        tokens.put(token, u.id);
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("id", u.id);
        user.put("username", u.username);
        user.put("email", u.email);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("token", token);
        out.put("user", user);
        return gson.toJson(out);
    }

    static Map<String, Object> findDashboard(String id) {
        Map<String, Object> d = dashboards.get(id);
        if (d == null) throw new ApiException(404, "Dashboard not found");
        return d;
    }

    static Map<String, Object> dashboardSummary(Map<String, Object> d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", d.get("id"));
        m.put("title", d.get("title"));
        m.put("description", d.get("description"));
        m.put("created_at", d.get("created_at"));
        m.put("updated_at", d.get("updated_at"));
        return m;
    }

    static Map<String, Object> dashboardDetail(Map<String, Object> d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", d.get("id"));
        m.put("title", d.get("title"));
        m.put("description", d.get("description"));
        List<Map<String, Object>> ws = new ArrayList<>();
        synchronized (widgets) {
            for (Map<String, Object> w : widgets.values()) {
                if (d.get("id").equals(w.get("dashboard_id"))) {
                    Map<String, Object> wm = new LinkedHashMap<>();
                    wm.put("id", w.get("id"));
                    wm.put("type", w.get("type"));
                    wm.put("title", w.get("title"));
                    wm.put("config", w.get("config"));
                    ws.add(wm);
                }
            }
        }
        m.put("widgets", ws);
        m.put("created_at", d.get("created_at"));
        m.put("updated_at", d.get("updated_at"));
        return m;
    }

    static Object createDashboard(Request req, Response res) {
        JsonObject b = body(req);
        String title = reqString(b, "title");
        String desc = optString(b, "description");
        Map<String, Object> d = new LinkedHashMap<>();
        String id = UUID.randomUUID().toString();
        String ts = now();
        d.put("id", id);
        d.put("title", title);
        d.put("description", desc == null ? "" : desc);
        d.put("created_at", ts);
        d.put("updated_at", ts);
        dashboards.put(id, d);
        res.status(201);
        return gson.toJson(dashboardSummary(d));
    }

    static Object updateDashboard(Request req, Response res) {
        Map<String, Object> d = findDashboard(req.params(":id"));
        JsonObject b = body(req);
        String title = optString(b, "title");
        String desc = optString(b, "description");
        if (title != null) {
            if (title.isBlank()) throw new ApiException(400, "title must not be empty");
            d.put("title", title);
        }
        if (desc != null) d.put("description", desc);
        d.put("updated_at", now());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", d.get("id"));
        m.put("title", d.get("title"));
        m.put("description", d.get("description"));
        m.put("updated_at", d.get("updated_at"));
        return gson.toJson(m);
    }

    static Object addWidget(Request req, Response res) {
        Map<String, Object> d = findDashboard(req.params(":id"));
        JsonObject b = body(req);
        String type = reqString(b, "type");
        String title = reqString(b, "title");
        Map<String, Object> config = optObject(b, "config");
        Map<String, Object> w = new LinkedHashMap<>();
        String id = UUID.randomUUID().toString();
        w.put("id", id);
        w.put("dashboard_id", d.get("id"));
        w.put("type", type);
        w.put("title", title);
        w.put("config", config == null ? new LinkedHashMap<>() : config);
        w.put("created_at", now());
        w.put("updated_at", w.get("created_at"));
        widgets.put(id, w);
        d.put("updated_at", now());
        res.status(201);
        Map<String, Object> out = new LinkedHashMap<>(w);
        out.remove("updated_at");
        return gson.toJson(out);
    }

    static Object updateWidget(Request req, Response res) {
        Map<String, Object> w = widgets.get(req.params(":id"));
        if (w == null) throw new ApiException(404, "Widget not found");
        JsonObject b = body(req);
        String title = optString(b, "title");
        Map<String, Object> config = optObject(b, "config");
        if (title != null) {
            if (title.isBlank()) throw new ApiException(400, "title must not be empty");
            w.put("title", title);
        }
        if (config != null) w.put("config", config);
        w.put("updated_at", now());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", w.get("id"));
        m.put("title", w.get("title"));
        m.put("config", w.get("config"));
        m.put("updated_at", w.get("updated_at"));
        return gson.toJson(m);
    }

    static Object createDatasource(Request req, Response res) {
        JsonObject b = body(req);
        String name = reqString(b, "name");
        String type = reqString(b, "type");
        Map<String, Object> conn = optObject(b, "connection_details");
        Map<String, Object> ds = new LinkedHashMap<>();
        String id = UUID.randomUUID().toString();
        ds.put("id", id);
        ds.put("name", name);
        ds.put("type", type);
        ds.put("connection_details", conn == null ? new LinkedHashMap<>() : conn);
        ds.put("created_at", now());
        datasources.put(id, ds);
        res.status(201);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("name", name);
        out.put("type", type);
        out.put("created_at", ds.get("created_at"));
        return gson.toJson(out);
    }

    static Object executeQuery(Request req, Response res) {
        JsonObject b = body(req);
        String datasetId = reqString(b, "dataset_id");
        Map<String, Object> filters = optObject(b, "filters");
        Map<String, Object> ds = datasets.get(datasetId);
        if (ds == null) throw new ApiException(404, "Dataset not found");
        List<String> columns;
        List<List<Object>> data = new ArrayList<>();
        if ("dataset-2".equals(datasetId)) {
            columns = List.of("day", "active_users");
            String[] days = {"Mon", "Tue", "Wed", "Thu", "Fri"};
            int[] vals = {120, 135, 128, 150, 142};
            for (int i = 0; i < days.length; i++) data.add(new ArrayList<>(List.of(days[i], vals[i])));
        } else {
            columns = List.of("month", "region", "revenue");
            String[] months = {"2024-01", "2024-02", "2024-03"};
            String[] regions = {"North", "South"};
            int v = 1000;
            for (String m : months) for (String r : regions) { data.add(new ArrayList<>(List.of(m, r, v))); v += 250; }
        }
        if (filters != null && !filters.isEmpty()) {
            List<List<Object>> filtered = new ArrayList<>();
            for (List<Object> row : data) {
                boolean ok = true;
                for (Map.Entry<String, Object> f : filters.entrySet()) {
                    int idx = columns.indexOf(f.getKey());
                    if (idx >= 0 && !String.valueOf(row.get(idx)).equals(String.valueOf(f.getValue()))) { ok = false; break; }
                }
                if (ok) filtered.add(row);
            }
            data = filtered;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("columns", columns);
        out.put("data", data);
        return gson.toJson(out);
    }

    static Object updateMe(Request req, Response res) {
        User u = auth(req);
        JsonObject b = body(req);
        String email = optString(b, "email");
        String password = optString(b, "password");
        if (email != null) {
            if (!email.contains("@")) throw new ApiException(400, "Invalid email");
            u.email = email;
        }
        if (password != null) {
            if (password.isBlank()) throw new ApiException(400, "password must not be empty");
            u.password = password;
        }
        u.updatedAt = now();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", u.id);
        m.put("username", u.username);
        m.put("email", u.email);
        m.put("updated_at", u.updatedAt);
        return gson.toJson(m);
    }
}
