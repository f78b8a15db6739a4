package apispec

import "strings"

// ProtoJSONName is a proto field's name in proto3 JSON, as Google's REST
// APIs spell it: lowerCamelCase (cost_micros → costMicros).
func ProtoJSONName(name string) string {
	var b strings.Builder
	up := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
			up = true
		case up && c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			up = false
		default:
			b.WriteByte(c)
			up = false
		}
	}
	return b.String()
}
