import java.math.BigDecimal;
import java.util.*;

/** The little JSON the CDK sidecar needs: one flat request object in, nested values out. */
final class Json {
  private final String s;
  private int i;

  private Json(String s) { this.s = s; }

  static Map<String, Object> parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value();
    if (!(v instanceof Map)) throw new IllegalArgumentException("a request is a JSON object");
    @SuppressWarnings("unchecked") Map<String, Object> m = (Map<String, Object>) v;
    return m;
  }

  private void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }

  private Object value() {
    char c = s.charAt(i);
    if (c == '{') {
      Map<String, Object> m = new LinkedHashMap<>();
      i++; ws();
      if (s.charAt(i) == '}') { i++; return m; }
      while (true) {
        ws(); String k = string(); ws();
        if (s.charAt(i++) != ':') throw new IllegalArgumentException("expected :");
        ws(); m.put(k, value()); ws();
        char d = s.charAt(i++);
        if (d == '}') return m;
        if (d != ',') throw new IllegalArgumentException("expected , or }");
      }
    }
    if (c == '"') return string();
    if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
    if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
    if (s.startsWith("null", i)) { i += 4; return null; }
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
    if (start == i) throw new IllegalArgumentException("unexpected " + c);
    return new BigDecimal(s.substring(start, i));
  }

  private String string() {
    if (s.charAt(i++) != '"') throw new IllegalArgumentException("expected a string");
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = s.charAt(i++);
      if (c == '"') return b.toString();
      if (c != '\\') { b.append(c); continue; }
      char e = s.charAt(i++);
      switch (e) {
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
        default: b.append(e);
      }
    }
  }

  static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(b, v);
    return b.toString();
  }

  private static void write(StringBuilder b, Object v) {
    if (v == null) { b.append("null"); return; }
    if (v instanceof String) { quote(b, (String) v); return; }
    if (v instanceof BigDecimal) { b.append(((BigDecimal) v).toPlainString()); return; }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      b.append(Double.isFinite(d) ? Double.toString(d) : "null");
      return;
    }
    if (v instanceof Number || v instanceof Boolean) { b.append(v); return; }
    if (v instanceof Map) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!first) b.append(',');
        first = false;
        quote(b, String.valueOf(e.getKey()));
        b.append(':');
        write(b, e.getValue());
      }
      b.append('}');
      return;
    }
    if (v instanceof Collection) {
      b.append('[');
      boolean first = true;
      for (Object o : (Collection<?>) v) {
        if (!first) b.append(',');
        first = false;
        write(b, o);
      }
      b.append(']');
      return;
    }
    quote(b, v.toString());
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c == '\n') b.append("\\n");
      else if (c == '\r') b.append("\\r");
      else if (c == '\t') b.append("\\t");
      else if (c < 0x20 || c == 0x2028 || c == 0x2029) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    b.append('"');
  }
}
