// Parses Java sources with the JDK's own compiler front end (no Android SDK needed: names are not
// resolved) and prints their declarations as JSON, for the tests of the Android project:
//   java scripts/java-declarations.java File.java...
// A file that does not parse is reported with its line and the program exits 1.
import com.sun.source.tree.*;
import com.sun.source.util.JavacTask;
import java.io.File;
import java.util.*;
import java.util.stream.*;
import javax.tools.*;

public class JavaDeclarations {
    static String q(Object s) {
        return "\"" + String.valueOf(s).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    static String annotations(ModifiersTree m) {
        return m.getAnnotations().stream().map(a -> q(a.toString())).collect(Collectors.joining(",", "[", "]"));
    }

    public static void main(String[] args) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, null);
        List<File> sources = Arrays.stream(args).map(File::new).collect(Collectors.toList());
        JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics, List.of("-proc:none"), null, files.getJavaFileObjectsFromFiles(sources));
        List<String> out = new ArrayList<>();
        for (CompilationUnitTree unit : task.parse()) {
            for (Tree type : unit.getTypeDecls()) {
                if (!(type instanceof ClassTree)) continue;
                ClassTree c = (ClassTree) type;
                List<String> methods = new ArrayList<>();
                for (Tree member : c.getMembers()) {
                    if (!(member instanceof MethodTree)) continue;
                    MethodTree m = (MethodTree) member;
                    String params = m.getParameters().stream().map(p -> q(p.getType())).collect(Collectors.joining(",", "[", "]"));
                    String mods = m.getModifiers().getFlags().stream().map(f -> q(f.toString())).collect(Collectors.joining(",", "[", "]"));
                    methods.add("{\"name\":" + q(m.getName()) + ",\"modifiers\":" + mods + ",\"annotations\":" + annotations(m.getModifiers()) + ",\"parameters\":" + params + ",\"body\":" + q(m.getBody() == null ? "" : m.getBody().toString()) + "}");
                }
                out.add("{\"file\":" + q(new File(unit.getSourceFile().toUri()).getName()) + ",\"package\":" + q(unit.getPackageName()) + ",\"name\":" + q(c.getSimpleName()) + ",\"extends\":" + q(c.getExtendsClause() == null ? "" : c.getExtendsClause()) + ",\"annotations\":" + annotations(c.getModifiers()) + ",\"methods\":" + String.join(",", List.of("[" + String.join(",", methods) + "]")) + "}");
            }
        }
        List<Diagnostic<? extends JavaFileObject>> errors = diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).collect(Collectors.toList());
        for (Diagnostic<? extends JavaFileObject> d : errors) System.err.println(d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(null));
        if (!errors.isEmpty()) System.exit(1);
        System.out.println("[" + String.join(",", out) + "]");
    }
}
