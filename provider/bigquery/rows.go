package bigquery

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Column is one result column.
type Column struct {
	Name   string   `json:"name"`
	Type   string   `json:"type"`
	Mode   string   `json:"mode,omitempty"`
	Fields []Column `json:"fields,omitempty"`
}

func columns(fs []fieldSchema) []Column {
	out := make([]Column, 0, len(fs))
	for _, f := range fs {
		c := Column{Name: f.Name, Type: f.Type, Mode: f.Mode}
		if len(f.Fields) > 0 {
			c.Fields = columns(f.Fields)
		}
		out = append(out, c)
	}
	return out
}

// typedRows converts f/v rows into objects keyed by column name with JSON
// types taken from the schema.
func typedRows(schema *tableSchema, rows []row) []map[string]any {
	out := make([]map[string]any, 0, len(rows))
	if schema == nil {
		return out
	}
	for _, r := range rows {
		out = append(out, record(schema.Fields, r.F))
	}
	return out
}

func record(fields []fieldSchema, cells []cell) map[string]any {
	m := make(map[string]any, len(fields))
	for i, f := range fields {
		if i < len(cells) {
			m[f.Name] = fieldValue(f, cells[i].V)
		}
	}
	return m
}

// fieldValue converts one cell value; REPEATED values are lists of cells and
// RECORD values are nested rows.
func fieldValue(f fieldSchema, v any) any {
	if v == nil {
		return nil
	}
	if f.Mode == "REPEATED" {
		items, _ := v.([]any)
		out := make([]any, 0, len(items))
		single := f
		single.Mode = "NULLABLE"
		for _, it := range items {
			if c, ok := it.(map[string]any); ok {
				out = append(out, fieldValue(single, c["v"]))
			}
		}
		return out
	}
	if f.Type == "RECORD" || f.Type == "STRUCT" {
		obj, _ := v.(map[string]any)
		raw, _ := json.Marshal(obj)
		var r row
		_ = json.Unmarshal(raw, &r)
		return record(f.Fields, r.F)
	}
	s, ok := v.(string)
	if !ok {
		return v
	}
	return scalar(f.Type, s)
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// scalar types one string-encoded value: integers and decimals become JSON
// numbers with their exact digits, floats numbers (NaN and ±Infinity stay
// strings), booleans booleans, timestamps RFC 3339 in UTC; the rest stay
// strings (DATE, DATETIME, TIME, BYTES as base64, GEOGRAPHY, JSON).
func scalar(typ, s string) any {
	switch typ {
	case "INTEGER", "INT64", "NUMERIC", "BIGNUMERIC", "DECIMAL", "BIGDECIMAL", "FLOAT", "FLOAT64":
		if jsonNumber.MatchString(s) {
			return json.Number(s)
		}
	case "BOOLEAN", "BOOL":
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case "TIMESTAMP":
		return timestamp(s)
	}
	return s
}

// timestamp converts BigQuery's epoch seconds ("1.7312256E9" or
// "1731225600.123456") to RFC 3339; other forms pass through.
func timestamp(s string) string {
	if strings.ContainsAny(s, "-:") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC().Format(time.RFC3339Nano)
}

func parseInt64(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
