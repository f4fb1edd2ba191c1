package fastjson

// AppendReflect is Append without the generated writer (gamerulesv1json):
// the tests check both against protojson.
var AppendReflect = appendReflect
