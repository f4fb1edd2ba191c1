package restjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/gamerules/gamerules/service"
)

// Problem is why a REST request could not be read as its message, in
// the words a client needs: the field (its JSON path in the request, such as
// "state", "gravityTrap.firstPlayer", "move.notaton"; "body" for the body as
// a whole), what was expected there, derived from the message's descriptor
// (`state must be an object such as {"text": "…"}, not the string "4HPw…"`),
// and where in the body (1-based line and column, in characters; 0 when not
// known). Its status is the service's form of error (service.InvalidRequest):
// INVALID_ARGUMENT with ErrorInfo reason INVALID_REQUEST and a BadRequest
// field violation.
type Problem struct {
	Field     string // the JSON path of the field, "body" or "query"
	Msg       string // what is wrong, in plain words
	Line, Col int    // where, 1-based; 0 when not known
}

// Error is the message: msg and, when known, "(line L:C)".
func (p *Problem) Error() string {
	if p.Line == 0 {
		return p.Msg
	}
	return fmt.Sprintf("%s (line %d:%d)", p.Msg, p.Line, p.Col)
}

// Err is p as the service's INVALID_ARGUMENT error
// (service.InvalidRequest), with "line" and "column" in the ErrorInfo
// metadata when known.
func (p *Problem) Err() error { return p.serviceError() }

// serviceError is Err's *service.Error.
func (p *Problem) serviceError() *service.Error {
	var meta map[string]string
	if p.Line > 0 {
		meta = map[string]string{"line": strconv.Itoa(p.Line), "column": strconv.Itoa(p.Col)}
	}
	return service.InvalidRequest(p.Field, p.Error(), meta)
}

// maxReadDepth bounds how deep CheckJSON follows nested messages; the API's
// messages nest a few levels.
const maxReadDepth = 64

// CheckJSON reads body as a JSON request of message md the way protojson
// does and returns the first thing in it that protojson would refuse, in
// plain words; nil when it finds nothing (the caller then falls back on
// protojson's own message). It is called only for a body that failed.
func CheckJSON(body []byte, md protoreflect.MessageDescriptor) *Problem {
	if n, over := JSONElements(body); over {
		return &Problem{Field: "body", Msg: fmt.Sprintf("the request body holds more than %d JSON objects and strings (%d); no game needs that many, so it was not decoded", MaxElements, n)}
	}
	r := &jsonReader{b: body, dec: json.NewDecoder(bytes.NewReader(body))}
	r.dec.UseNumber()
	start := r.next(0)
	tok, err := r.dec.Token()
	if err != nil {
		return r.syntax(err, "body")
	}
	if tok != json.Delim('{') {
		return r.at(start, "body", "the request body must be a JSON object (a %s), not %s", md.Name(), Found(tok))
	}
	if p := r.message(md, "", start, 1); p != nil {
		return p
	}
	end := r.next(int(r.dec.InputOffset()))
	if _, err := r.dec.Token(); err != io.EOF {
		return r.at(end, "body", "the request body has more data after its JSON value; send exactly one JSON object")
	}
	return nil
}

// jsonReader walks a body's tokens beside the message descriptors.
type jsonReader struct {
	b   []byte
	dec *json.Decoder
}

// next is the offset of the next token at or after off: separators and
// white space skipped.
func (r *jsonReader) next(off int) int {
	for off < len(r.b) {
		switch r.b[off] {
		case ' ', '\t', '\n', '\r', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// at is a problem of field at byte offset off.
func (r *jsonReader) at(off int, field, format string, args ...any) *Problem {
	line, col := lineCol(r.b, off)
	return &Problem{Field: field, Msg: fmt.Sprintf(format, args...), Line: line, Col: col}
}

// syntax is the problem of a body that is not JSON, read up to field.
func (r *jsonReader) syntax(err error, field string) *Problem {
	off := int(r.dec.InputOffset())
	if at, ok := syntaxOffset(err); ok {
		off = int(at)
		if off > 0 {
			off-- // the offset is after the character that is wrong
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		what := "the request body"
		if field != "body" {
			what = field
		}
		return r.at(len(r.b), field, "the request body is not valid JSON: it ends in the middle of %s", what)
	}
	return r.at(off, field, "the request body is not valid JSON: %v", err)
}

// lineCol is the 1-based line and column (in characters) of byte offset off
// of b.
func lineCol(b []byte, off int) (int, int) {
	off = min(off, len(b))
	line := 1 + bytes.Count(b[:off], []byte{'\n'})
	lineStart := bytes.LastIndexByte(b[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(b[lineStart:off])
}

// message reads the members of an object of md whose '{' (at offset start)
// has been read, up to and including its '}'. path is the object's own path
// ("" for the request).
func (r *jsonReader) message(md protoreflect.MessageDescriptor, path string, start, depth int) *Problem {
	if depth > maxReadDepth {
		return r.at(start, orBody(path), "%s nests more than %d objects deep", orBody(path), maxReadDepth)
	}
	seen := map[protoreflect.Name]bool{}
	oneofs := map[protoreflect.FullName]protoreflect.FieldDescriptor{}
	for r.dec.More() {
		keyOff := r.next(int(r.dec.InputOffset()))
		tok, err := r.dec.Token()
		if err != nil {
			return r.syntax(err, orBody(path))
		}
		key, _ := tok.(string)
		if p := r.text(keyOff, orBody(path), "a field name"); p != nil {
			return p
		}
		fd := FieldByName(md, key)
		if fd == nil {
			msg := fmt.Sprintf("unknown field %q in %s", key, inWhat(path))
			if s := suggestField(md, key); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; its fields are " + fieldList(md)
			}
			return r.at(keyOff, join(path, key), "%s", msg)
		}
		fpath := join(path, fd.JSONName())
		if seen[fd.Name()] {
			return r.at(keyOff, fpath, "duplicate field %q in %s: each field may be given once", key, inWhat(path))
		}
		seen[fd.Name()] = true
		valOff := r.next(int(r.dec.InputOffset()))
		isNull, p := r.field(fd, fpath, depth)
		if p != nil {
			return p
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() && !isNull {
			if other, ok := oneofs[od.FullName()]; ok {
				return r.at(valOff, fpath, "%s sets both %q and %q, members of the oneof %q: set at most one of %s",
					orRequest(path), other.JSONName(), fd.JSONName(), od.Name(), oneofList(od))
			}
			oneofs[od.FullName()] = fd
		}
	}
	if _, err := r.dec.Token(); err != nil { // the closing '}'
		return r.syntax(err, orBody(path))
	}
	return nil
}

// field reads the value of fd (a list, a map or one value) at path; isNull
// reports a JSON null, which protojson reads as the field left out.
func (r *jsonReader) field(fd protoreflect.FieldDescriptor, path string, depth int) (isNull bool, p *Problem) {
	if !fd.IsList() && !fd.IsMap() {
		return r.single(fd, path, depth, false)
	}
	off := r.next(int(r.dec.InputOffset()))
	tok, err := r.dec.Token()
	if err != nil {
		return false, r.syntax(err, path)
	}
	if tok == nil {
		return true, nil
	}
	if fd.IsList() {
		if tok != json.Delim('[') {
			return false, r.at(off, path, "%s must be an array such as [%s], not %s", path, exampleOf(fd, 0), Found(tok))
		}
		for i := 0; r.dec.More(); i++ {
			if _, p := r.single(fd, fmt.Sprintf("%s[%d]", path, i), depth, true); p != nil {
				return false, p
			}
		}
	} else {
		if tok != json.Delim('{') {
			return false, r.at(off, path, "%s must be an object such as {%s: %s}, not %s", path, exampleOf(fd.MapKey(), 0), exampleOf(fd.MapValue(), 0), Found(tok))
		}
		for r.dec.More() {
			keyOff := r.next(int(r.dec.InputOffset()))
			tok, err := r.dec.Token()
			if err != nil {
				return false, r.syntax(err, path)
			}
			key, _ := tok.(string)
			if p := r.text(keyOff, path, "a key"); p != nil {
				return false, p
			}
			if kd := fd.MapKey(); kd.Kind() != protoreflect.StringKind {
				if why := ScalarString(kd, key); why != "" {
					return false, r.at(keyOff, path, "%s's keys must be %s, not %q", path, why, key)
				}
			}
			if _, p := r.single(fd.MapValue(), path+"."+key, depth, true); p != nil {
				return false, p
			}
		}
	}
	if _, err := r.dec.Token(); err != nil { // the closing ']' or '}'
		return false, r.syntax(err, path)
	}
	return false, nil
}

// single reads one value of fd's kind at path; elem marks an element of a
// list or a map's value, which protojson does not take as null.
func (r *jsonReader) single(fd protoreflect.FieldDescriptor, path string, depth int, elem bool) (bool, *Problem) {
	off := r.next(int(r.dec.InputOffset()))
	if fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		if wellKnown(fd.Message()) {
			// google.protobuf types with their own JSON forms (FieldMask,
			// Struct, …): protojson judges them.
			null, err := skipValueAt(r.dec, r.b, off, elem && fd.IsList())
			if err != nil {
				return false, r.syntax(err, path)
			}
			return null, nil
		}
	}
	tok, err := r.dec.Token()
	if err != nil {
		return false, r.syntax(err, path)
	}
	if tok == nil {
		if elem && fd.Enum() == nil || elem && fd.Enum().FullName() != "google.protobuf.NullValue" {
			return false, r.at(off, path, "%s must be %s, not null (null stands for a field left out, not for an element)", path, elemNoun(fd))
		}
		return true, nil
	}
	if _, ok := tok.(string); ok {
		if p := r.text(off, path, "a string"); p != nil {
			return false, p
		}
	}
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if tok != json.Delim('{') {
			return false, r.at(off, path, "%s must be an object such as %s, not %s", path, exampleOf(fd, 0), Found(tok))
		}
		return false, r.message(fd.Message(), path, off, depth+1)
	case protoreflect.StringKind:
		if _, ok := tok.(string); !ok {
			return false, r.at(off, path, "%s must be a string such as %s, not %s", path, exampleOf(fd, 0), Found(tok))
		}
	case protoreflect.BytesKind:
		s, ok := tok.(string)
		if !ok || !isBase64(s) {
			return false, r.at(off, path, "%s must be a base64 string, not %s", path, Found(tok))
		}
	case protoreflect.BoolKind:
		if _, ok := tok.(bool); !ok {
			return false, r.at(off, path, "%s must be true or false, not %s", path, Found(tok))
		}
	case protoreflect.EnumKind:
		if why := enumValue(fd.Enum(), tok); why != "" {
			return false, r.at(off, path, "%s must be %s, not %s", path, why, Found(tok))
		}
	default: // the numbers
		var s string
		switch v := tok.(type) {
		case json.Number:
			s = string(v)
		case string:
			s = v
		default:
			return false, r.at(off, path, "%s must be %s, not %s", path, numberNoun(fd), Found(tok))
		}
		if why := ScalarString(fd, s); why != "" {
			return false, r.at(off, path, "%s must be %s, not %s", path, why, Found(tok))
		}
	}
	return false, nil
}

// text checks the raw bytes of the string token at off: valid UTF-8 and no
// lone UTF-16 surrogate escape, which encoding/json would read as U+FFFD.
func (r *jsonReader) text(off int, path, what string) *Problem {
	end := min(int(r.dec.InputOffset()), len(r.b))
	raw := r.b[min(off, end):end]
	if !utf8.Valid(raw) {
		return r.at(off, path, "%s: %s is not valid UTF-8", path, what)
	}
	if loneSurrogate(raw) >= 0 {
		return r.at(off, path, "%s: %s has a \\u escape that is half of a UTF-16 surrogate pair (such as \\ud800 alone); JSON strings must be valid Unicode", path, what)
	}
	return nil
}

// elemNoun is what one value of fd is, in words.
func elemNoun(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return "an object such as " + exampleOf(fd, 0)
	case protoreflect.StringKind:
		return "a string"
	case protoreflect.BytesKind:
		return "a base64 string"
	case protoreflect.BoolKind:
		return "true or false"
	case protoreflect.EnumKind:
		return "one of " + strings.Join(enumNames(fd.Enum()), ", ")
	}
	return numberNoun(fd)
}

// wellKnown reports a google.protobuf message with a JSON form of its own.
func wellKnown(md protoreflect.MessageDescriptor) bool {
	return md.ParentFile() != nil && md.ParentFile().Package() == "google.protobuf"
}

// FieldByName finds a field by its JSON name or its proto name, as protojson
// accepts both.
func FieldByName(md protoreflect.MessageDescriptor, key string) protoreflect.FieldDescriptor {
	fields := md.Fields()
	if fd := fields.ByJSONName(key); fd != nil {
		return fd
	}
	if fd := fields.ByName(protoreflect.Name(key)); fd != nil {
		return fd
	}
	return nil
}

// suggestField is the field of md whose JSON name is nearest key (a letter
// or two away, or the same but for case and underscores), or "".
func suggestField(md protoreflect.MessageDescriptor, key string) string {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	best, bestD := "", 0
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		name := fields.Get(i).JSONName()
		d := editDistance(norm(key), norm(name))
		if d <= max(1, len(name)/4) && (best == "" || d < bestD) {
			best, bestD = name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// fieldList is md's fields' JSON names, comma-separated.
func fieldList(md protoreflect.MessageDescriptor) string {
	fields := md.Fields()
	names := make([]string, fields.Len())
	for i := range names {
		names[i] = fields.Get(i).JSONName()
	}
	return strings.Join(names, ", ")
}

// oneofList is a oneof's members' JSON names, comma-separated.
func oneofList(od protoreflect.OneofDescriptor) string {
	fields := od.Fields()
	names := make([]string, fields.Len())
	for i := range names {
		names[i] = fields.Get(i).JSONName()
	}
	return strings.Join(names, ", ")
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

func orRequest(path string) string {
	if path == "" {
		return "the request"
	}
	return path
}

func inWhat(path string) string {
	if path == "" {
		return "the request"
	}
	return path
}

// Found names a JSON token for a message: `the string "4HPw…"`, `the number
// 1.5`, `true`, `null`, `an object`, `an array`.
func Found(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		if utf8.RuneCountInString(v) > 24 {
			v = string([]rune(v)[:24]) + "…"
		}
		return "the string " + strconv.Quote(v)
	case json.Number:
		s := string(v)
		if len(s) > 30 {
			s = s[:30] + "…"
		}
		return "the number " + s
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	}
	return fmt.Sprint(tok)
}

// exampleOf is a JSON example of one value of fd (not the list): for a
// message, an object with its first field (`{"text": "…"}`), for an enum its
// first named value; depth bounds the nesting.
func exampleOf(fd protoreflect.FieldDescriptor, depth int) string {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		md := fd.Message()
		if wellKnown(md) || md.Fields().Len() == 0 || depth > 0 {
			return "{…}"
		}
		first := md.Fields().Get(0)
		v := exampleOf(first, depth+1)
		if first.IsList() {
			v = "[" + v + "]"
		} else if first.IsMap() {
			v = "{…}"
		}
		return fmt.Sprintf("{%q: %s}", first.JSONName(), v)
	case protoreflect.StringKind, protoreflect.BytesKind:
		return `"…"`
	case protoreflect.BoolKind:
		return "true"
	case protoreflect.EnumKind:
		if names := enumNames(fd.Enum()); len(names) > 0 {
			return strconv.Quote(names[0])
		}
		return "0"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return `"1"`
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return "0.5"
	}
	return "1"
}

// enumNames are an enum's value names but its *_UNSPECIFIED zero.
func enumNames(ed protoreflect.EnumDescriptor) []string {
	vals := ed.Values()
	var names []string
	for i := 0; i < vals.Len(); i++ {
		if n := string(vals.Get(i).Name()); !strings.HasSuffix(n, "_UNSPECIFIED") {
			names = append(names, n)
		}
	}
	return names
}

// enumValue checks an enum token as protojson reads one (a value's name, or
// its number); it returns what is expected, or "".
func enumValue(ed protoreflect.EnumDescriptor, tok json.Token) string {
	oneOf := "one of " + strings.Join(enumNames(ed), ", ")
	switch v := tok.(type) {
	case string:
		if ed.Values().ByName(protoreflect.Name(v)) != nil {
			return ""
		}
		up := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(v), "-", "_"))
		for _, n := range enumNames(ed) {
			if n == up || strings.HasSuffix(n, "_"+up) {
				return fmt.Sprintf("%s (did you mean %q?)", oneOf, n)
			}
		}
		return oneOf
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 32); err == nil {
			return "" // protojson takes any int32 number; the service judges it
		}
		return oneOf + " (or its number)"
	}
	return oneOf
}

// numberNoun is what a number field holds, in words; span, when not "", is
// the kind's range.
func numberNoun(fd protoreflect.FieldDescriptor, span ...string) string {
	var noun string
	switch fd.Kind() {
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return "a number"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		noun = "a whole number (0 or more)"
	default:
		noun = "an integer"
	}
	if len(span) > 0 && span[0] != "" {
		noun = strings.TrimSuffix(noun, " (0 or more)") + " in " + span[0]
	}
	switch fd.Kind() {
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind, protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		noun += ` (a string such as "1", as protojson writes 64-bit integers, or a number)`
	}
	return noun
}

// ScalarString checks s as a value of scalar field fd as protojson reads it
// from a JSON number or string (for a number field: an integer in the kind's
// range, exponent forms allowed when whole; a float, or "NaN", "Infinity",
// "-Infinity"), or from a query parameter or map key; it returns what is
// expected, or "".
func ScalarString(fd protoreflect.FieldDescriptor, s string) string {
	var lo, hi float64
	var bits int
	var span string // the kind's range, in words
	signed := true
	switch fd.Kind() {
	case protoreflect.StringKind:
		return ""
	case protoreflect.BytesKind:
		if isBase64(s) {
			return ""
		}
		return "a base64 string"
	case protoreflect.BoolKind:
		if s == "true" || s == "false" {
			return ""
		}
		return "true or false"
	case protoreflect.EnumKind:
		return enumValue(fd.Enum(), s)
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		switch s {
		case "NaN", "Infinity", "-Infinity":
			return ""
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return ""
		}
		return "a number"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		lo, hi, bits, span = math.MinInt32, math.MaxInt32, 32, "-2147483648..2147483647"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		lo, hi, bits, signed, span = 0, math.MaxUint32, 32, false, "0..4294967295"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		lo, hi, bits, span = math.MinInt64, math.MaxInt64, 64, "-9223372036854775808..9223372036854775807"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		lo, hi, bits, signed, span = 0, math.MaxUint64, 64, false, "0..18446744073709551615"
	default:
		return ""
	}
	var err error
	if signed {
		_, err = strconv.ParseInt(s, 10, bits)
	} else {
		_, err = strconv.ParseUint(s, 10, bits)
	}
	if err == nil {
		return ""
	}
	noun := numberNoun(fd)
	f, ferr := strconv.ParseFloat(s, 64)
	switch {
	case ferr != nil && !errors.Is(ferr, strconv.ErrRange):
		return noun
	case f != math.Trunc(f):
		return noun + ", without a fraction"
	case f >= lo && f <= hi && !errors.Is(ferr, strconv.ErrRange) && strings.ContainsAny(s, "eE."):
		return "" // a whole number in exponent or decimal form ("1e2", "3.0"), which protojson takes
	case strings.HasPrefix(s, "-") && !signed:
		return noun
	}
	return numberNoun(fd, span)
}

// isBase64 reports whether s is base64 as protojson reads bytes (standard or
// URL alphabet, padded or not).
func isBase64(s string) bool {
	s = strings.TrimRight(s, "=")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_') {
			return false
		}
	}
	return len(s)%4 != 1
}

// skipValueAt steps dec over the value that starts at byte off of b (dec
// has read up to it: white space and separators are all that lie between)
// as dec.Decode into a json.RawMessage would: its error (readValue's, its
// offset in b), or whether the value is null. readValue reads from the end
// of the token dec read last (the name before the value, inArray false;
// the array's '[' or its element before), behind a prefix that puts its
// tokenizer where dec's is (in an object after a name; in an array, first
// or after an element), since what a syntax error says depends on it; then
// dec reads the value, token by token.
func skipValueAt(dec *json.Decoder, b []byte, off int, inArray bool) (bool, error) {
	start := off
	for start > 0 && strings.IndexByte(" \t\n\r:,", b[start-1]) >= 0 {
		start--
	}
	prefix := `{""`
	if inArray {
		prefix = "[0"
		if start > 0 && b[start-1] == '[' {
			prefix = "["
		}
	}
	_, null, err := readValueAfter(prefix, b[start:])
	if err != nil {
		if se, ok := err.(*syntaxError); ok {
			return false, &syntaxError{msg: se.msg, offset: se.offset + int64(start)}
		}
		return false, err
	}
	for depth := 0; ; {
		tok, err := dec.Token()
		if err != nil {
			return false, err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return null, nil
		}
	}
}
