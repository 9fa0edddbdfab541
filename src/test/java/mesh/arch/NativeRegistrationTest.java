package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * NativeRegistrationTest fails when a type that Jackson reads or writes by reflection is not registered for the
 * native image. On the JVM such a type works; in the native executable Jackson finds no constructor or accessor and
 * the call fails on an operator's node (docs/design.md, "Native-ready"). Registrations are kept by hand in
 * {@code mesh.NativeReflection} and {@code mesh.cli.CliReflection}; this test derives what must be there:
 * <ul>
 *   <li>every record and enum of {@code mesh.wire}, the bodies of both APIs (its other classes are the transport);</li>
 *   <li>the bodies and answers of every REST resource method (a parameter without a JAX-RS annotation, the
 *   return type), whichever package the resource is in;</li>
 *   <li>every type main code hands Jackson by name: {@code readValue(…, X.class)}, {@code readerFor(X.class)},
 *   {@code new TypeReference<…>}, in the store's columns, the agent's files and the CLI's answers alike;</li>
 *   <li>and, from each of those, every mesh type it holds (record components, fields, type arguments, the
 *   subtypes of a sealed or {@code @JsonSubTypes} type), as Jackson reaches them.</li>
 * </ul>
 * A type is registered when a {@code @RegisterForReflection} names it among its targets or sits on it.
 */
class NativeRegistrationTest {

    static final Path CLASSES = Path.of("target/classes");
    /** The classes of mesh.wire that carry bodies rather than being one: their nested records never meet Jackson. */
    static final Set<Class<?>> TRANSPORT = Set.of(mesh.wire.JsonHttp.class);
    static final Pattern CLASS_LITERAL_TO_JACKSON = Pattern.compile(
            "(?:readValue|readerFor|convertValue|treeToValue)\\((?:[^;]*?,\\s*)?([A-Z][\\w.]*|[a-z][\\w]*(?:\\.[\\w]+)+)\\.class");
    static final Pattern TYPE_REFERENCE = Pattern.compile("new\\s+(?:[\\w.]+\\.)?TypeReference\\s*<(.+?)>\\s*\\(\\s*\\)");
    static final Pattern TYPE_NAME = Pattern.compile("[A-Za-z_][\\w.]*");
    static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    static final Pattern IMPORT = Pattern.compile("^import\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    static final List<Class<? extends java.lang.annotation.Annotation>> PARAM_ANNOTATIONS = List.of(
            jakarta.ws.rs.PathParam.class, jakarta.ws.rs.QueryParam.class, jakarta.ws.rs.HeaderParam.class,
            jakarta.ws.rs.core.Context.class, jakarta.ws.rs.CookieParam.class, jakarta.ws.rs.FormParam.class,
            jakarta.ws.rs.MatrixParam.class, jakarta.ws.rs.BeanParam.class);
    static final List<Class<? extends java.lang.annotation.Annotation>> HTTP_METHODS = List.of(
            jakarta.ws.rs.GET.class, jakarta.ws.rs.POST.class, jakarta.ws.rs.PUT.class, jakarta.ws.rs.DELETE.class,
            jakarta.ws.rs.PATCH.class);

    @Test
    void everyTypeJacksonMapsIsRegisteredForTheNativeImage() throws IOException {
        List<Class<?>> all = mainClasses();
        Set<Class<?>> registered = registered(all);
        SortedSet<String> missing = new TreeSet<>();
        for (Map.Entry<Class<?>, String> reached : Reach.from(roots(all)).entrySet()) {
            if (!registered.contains(reached.getKey())) {
                missing.add(reached.getKey().getName() + " (" + reached.getValue() + ")");
            }
        }
        assertEquals(List.of(), List.copyOf(missing),
                "types Jackson maps by reflection but no @RegisterForReflection names: add them to mesh.NativeReflection"
                        + " (or mesh.cli.CliReflection for the CLI's own documents)");
    }

    /** The test's own rule, checked: a record of the wire that nobody listed is found, and so is what it holds. */
    @Test
    void aTypeReachedOnlyThroughAnotherIsFound() {
        Map<Class<?>, String> reached = Reach.from(Map.of(Outer.class, "a root"));
        assertTrue(reached.containsKey(Outer.class), reached.toString());
        assertTrue(reached.containsKey(Inner.class), "a record component's element type: " + reached);
        assertTrue(reached.containsKey(Leaf.class), "a sealed type's subtype: " + reached);
        assertTrue(reached.containsKey(Kind.class), "an enum a record holds: " + reached);
        assertEquals("a root → items", reached.get(Inner.class));
    }

    /** What Jackson is handed by name, each with where the test found it. */
    static Map<Class<?>, String> roots(List<Class<?>> all) throws IOException {
        Map<Class<?>, String> roots = new java.util.LinkedHashMap<>();
        for (Class<?> c : all) {
            boolean transport = c.getEnclosingClass() != null && TRANSPORT.contains(c.getEnclosingClass());
            if (c.getName().startsWith("mesh.wire.") && (c.isRecord() || c.isEnum()) && !transport) {
                roots.putIfAbsent(c, "a record of mesh.wire");
            }
            if (c.isAnnotationPresent(jakarta.ws.rs.Path.class)) {
                resourceTypes(c, roots);
            }
        }
        for (Map.Entry<String, String> source : SourceScan.mainSources().entrySet()) {
            namedToJackson(source.getKey(), source.getValue(), roots);
        }
        return roots;
    }

    private static void resourceTypes(Class<?> resource, Map<Class<?>, String> roots) {
        for (Method m : resource.getDeclaredMethods()) {
            if (HTTP_METHODS.stream().noneMatch(m::isAnnotationPresent)) {
                continue;
            }
            String where = resource.getSimpleName() + "." + m.getName();
            meshTypes(m.getGenericReturnType()).forEach(t -> roots.putIfAbsent(t, "answer of " + where));
            for (Parameter p : m.getParameters()) {
                if (PARAM_ANNOTATIONS.stream().noneMatch(p::isAnnotationPresent)) {
                    meshTypes(p.getParameterizedType()).forEach(t -> roots.putIfAbsent(t, "body of " + where));
                }
            }
        }
    }

    private static void namedToJackson(String file, String source, Map<Class<?>, String> roots) {
        String code = source.replaceAll("(?s)/\\*.*?\\*/|//[^\\n]*", " ");
        List<String> names = new ArrayList<>();
        Matcher m = CLASS_LITERAL_TO_JACKSON.matcher(code);
        while (m.find()) {
            names.add(m.group(1));
        }
        Matcher t = TYPE_REFERENCE.matcher(code);
        while (t.find()) {
            Matcher n = TYPE_NAME.matcher(t.group(1));
            while (n.find()) {
                names.add(n.group());
            }
        }
        for (String name : names) {
            Class<?> c = resolve(name, file, code);
            if (c != null) {
                meshTypes(c).forEach(x -> roots.putIfAbsent(x, "handed to Jackson in " + file));
            }
        }
    }

    /** The class {@code name} means in {@code file}: written in full, imported, of the same package, or nested. */
    static Class<?> resolve(String name, String file, String code) {
        String pkg = matchOr(PACKAGE, code, "");
        String top = file.substring(file.lastIndexOf('/') + 1, file.length() - ".java".length());
        String head = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
        String rest = name.contains(".") ? name.substring(name.indexOf('.')).replace('.', '$') : "";
        List<String> candidates = new ArrayList<>();
        candidates.add(name);
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            if (imports.group(1).endsWith("." + head)) {
                candidates.add(imports.group(1) + rest);
            }
        }
        candidates.add(pkg + "." + top + "$" + head + rest);
        candidates.add(pkg + "." + head + rest);
        candidates.add("java.lang." + head + rest);
        for (String candidate : candidates) {
            for (String binary = candidate; ; ) {
                try {
                    return Class.forName(binary, false, NativeRegistrationTest.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError notThis) {
                    int dot = binary.lastIndexOf('.');
                    if (dot < 0) {
                        break;
                    }
                    binary = binary.substring(0, dot) + "$" + binary.substring(dot + 1);
                }
            }
        }
        return null;
    }

    private static String matchOr(Pattern p, String text, String otherwise) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : otherwise;
    }

    /** The mesh classes in a type, its type arguments and array elements included. */
    static List<Class<?>> meshTypes(Type type) {
        List<Class<?>> found = new ArrayList<>();
        collect(type, found);
        return found;
    }

    private static void collect(Type type, List<Class<?>> found) {
        if (type instanceof Class<?> c) {
            if (c.isArray()) {
                collect(c.getComponentType(), found);
            } else if (c.getName().startsWith("mesh.")) {
                found.add(c);
            }
        } else if (type instanceof ParameterizedType p) {
            collect(p.getRawType(), found);
            for (Type arg : p.getActualTypeArguments()) {
                collect(arg, found);
            }
        } else if (type instanceof GenericArrayType a) {
            collect(a.getGenericComponentType(), found);
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                collect(bound, found);
            }
        }
    }

    /** Reach walks from the roots to every mesh type Jackson meets in them, each with the path that led there. */
    static final class Reach {

        static Map<Class<?>, String> from(Map<Class<?>, String> roots) {
            Map<Class<?>, String> reached = new java.util.LinkedHashMap<>(roots);
            Deque<Class<?>> todo = new ArrayDeque<>(roots.keySet());
            while (!todo.isEmpty()) {
                Class<?> c = todo.pop();
                String path = reached.get(c);
                for (Map.Entry<String, Class<?>> next : held(c)) {
                    if (!reached.containsKey(next.getValue())) {
                        reached.put(next.getValue(), path + " → " + next.getKey());
                        todo.push(next.getValue());
                    }
                }
            }
            return reached;
        }

        /** What Jackson reads or writes inside {@code c}: its components or instance fields, and its subtypes. */
        private static List<Map.Entry<String, Class<?>>> held(Class<?> c) {
            List<Map.Entry<String, Class<?>>> held = new ArrayList<>();
            if (c.isEnum() || c.isAnnotation()) {
                return held;
            }
            if (c.isRecord()) {
                for (RecordComponent rc : c.getRecordComponents()) {
                    meshTypes(rc.getGenericType()).forEach(t -> held.add(Map.entry(rc.getName(), t)));
                }
            } else {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) {
                        meshTypes(f.getGenericType()).forEach(t -> held.add(Map.entry(f.getName(), t)));
                    }
                }
            }
            if (c.isSealed()) {
                for (Class<?> sub : c.getPermittedSubclasses()) {
                    held.add(Map.entry("subtype", sub));
                }
            }
            JsonSubTypes subTypes = c.getAnnotation(JsonSubTypes.class);
            if (subTypes != null) {
                for (JsonSubTypes.Type sub : subTypes.value()) {
                    held.add(Map.entry("subtype", sub.value()));
                }
            }
            return held;
        }
    }

    /** Every class a {@code @RegisterForReflection} in main code names or sits on. */
    static Set<Class<?>> registered(List<Class<?>> all) {
        Set<Class<?>> registered = new java.util.HashSet<>();
        for (Class<?> c : all) {
            RegisterForReflection r = c.getAnnotation(RegisterForReflection.class);
            if (r != null) {
                if (r.targets().length == 0 && r.classNames().length == 0) {
                    registered.add(c);
                }
                registered.addAll(List.of(r.targets()));
                for (String name : r.classNames()) {
                    try {
                        registered.add(Class.forName(name, false, NativeRegistrationTest.class.getClassLoader()));
                    } catch (ClassNotFoundException e) {
                        throw new AssertionError("@RegisterForReflection on " + c.getName() + " names no class: " + name, e);
                    }
                }
            }
        }
        return registered;
    }

    /** Every class compiled from main code, nested ones included. */
    static List<Class<?>> mainClasses() throws IOException {
        assertTrue(Files.isDirectory(CLASSES.resolve("mesh/wire")), "main code is compiled into " + CLASSES);
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLASSES.resolve("mesh"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = CLASSES.relativize(file).toString().replace('/', '.');
                name = name.substring(0, name.length() - ".class".length());
                try {
                    classes.add(Class.forName(name, false, NativeRegistrationTest.class.getClassLoader()));
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new AssertionError("cannot load " + name, e);
                }
            }
        }
        return classes;
    }

    // the rule's own fixture
    record Outer(List<Inner> items, Kind kind) {
    }

    record Inner(Shape item) {
    }

    sealed interface Shape permits Leaf {
    }

    record Leaf(String name) implements Shape {
    }

    enum Kind { A }
}
