# flatten.awk: a JSON document on stdin (the agent's) -> one line per value,
# PATH<TAB>VALUE, PATH the keys and array indexes joined with "."
# (threads.0.max_ns), a string's value as written between its quotes (escapes
# kept), numbers and true/false/null as written. Empty objects and arrays give
# no line. For boards with nothing but a POSIX awk (busybox, mawk, gawk): the
# agent speaks JSON, LAVA's test shell speaks lines.
#
# Records are split at double quotes, so strings and what lies between them
# alternate; a quote after an odd number of backslashes is inside a string.
BEGIN { RS = "\""; inside = 0; pending = ""; n = 0 }
{
  if (inside) {
    text = pending $0
    if (match($0, /\\+$/) && RLENGTH % 2 == 1) { pending = text "\""; next }
    pending = ""
    token[++n] = "\"" text
    inside = 0
    next
  }
  between = $0
  gsub(/[ \t\r\n]+/, "", between)
  length_ = length(between)
  for (i = 1; i <= length_; i++) {
    c = substr(between, i, 1)
    if (index("{}[]:,", c)) { token[++n] = c; continue }
    for (j = i; j <= length_ && !index("{}[]:,", substr(between, j, 1)); j++) ;
    token[++n] = substr(between, i, j - i)
    i = j - 1
  }
  inside = 1
}
function malformed() { print "flatten.awk: not a JSON document" > "/dev/stderr"; bad = 1; exit 2 }
function value(path,    t, key, index_) {
  if (p > n) malformed()
  t = token[p]
  if (t == "{") {
    p++
    if (token[p] == "}") { p++; return }
    while (p <= n) {
      if (substr(token[p], 1, 1) != "\"" || token[p + 1] != ":") malformed()
      key = substr(token[p], 2)
      p += 2
      value(path == "" ? key : path "." key)
      if (bad) return
      if (token[p] == ",") { p++; continue }
      if (token[p] != "}") malformed()
      p++
      return
    }
    malformed()
  }
  if (t == "[") {
    p++
    if (token[p] == "]") { p++; return }
    index_ = 0
    while (p <= n) {
      value(path == "" ? index_ : path "." index_)
      if (bad) return
      index_++
      if (token[p] == ",") { p++; continue }
      if (token[p] != "]") malformed()
      p++
      return
    }
    malformed()
  }
  if (t == "}" || t == "]" || t == ":" || t == ",") malformed()
  print path "\t" (substr(t, 1, 1) == "\"" ? substr(t, 2) : t)
  p++
}
END {
  if (bad) exit 2
  if (n == 0) malformed()
  p = 1
  value("")
  if (!bad && p <= n) malformed()
  exit bad ? 2 : 0
}
