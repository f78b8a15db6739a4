package hubspot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// record is a stored CRM record.
type record struct {
	id      int64
	props   map[string]string
	created time.Time
	updated time.Time
}

// recordSet holds one object type's records in id order.
type recordSet struct {
	byID  map[string]*record
	order []*record
}

const hsTime = "2006-01-02T15:04:05.000Z"

// invalidProperty describes one rejected property value, as HubSpot lists them.
type invalidProperty struct {
	IsValid bool   `json:"isValid"`
	Message string `json:"message"`
	Error   string `json:"error"`
	Name    string `json:"name"`
}

// checkProperties validates and normalises property values for a write:
// unknown and read-only names, enumeration options, numbers and dates.
func checkProperties(t *sandboxType, in map[string]string) (map[string]string, *apiError) {
	out := make(map[string]string, len(in))
	var bad []invalidProperty
	names := make([]string, 0, len(in))
	for n := range in {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		v := in[name]
		p, ok := t.byName[name]
		switch {
		case !ok:
			bad = append(bad, invalidProperty{Message: fmt.Sprintf("Property \"%s\" does not exist", name), Error: "PROPERTY_DOESNT_EXIST", Name: name})
			continue
		case p.ModificationMetadata.ReadOnlyValue:
			bad = append(bad, invalidProperty{Message: fmt.Sprintf("\"%s\" is a read only property; its value cannot be set.", name), Error: "READ_ONLY_VALUE", Name: name})
			continue
		case v == "":
			out[name] = ""
			continue
		}
		switch p.Type {
		case "enumeration":
			if !slices.ContainsFunc(p.Options, func(o hsOption) bool { return o.Value == v }) {
				values := make([]string, len(p.Options))
				for i, o := range p.Options {
					values[i] = o.Value
				}
				bad = append(bad, invalidProperty{Message: fmt.Sprintf("%s was not one of the allowed options: [%s]", v, strings.Join(values, ", ")), Error: "INVALID_OPTION", Name: name})
				continue
			}
		case "number":
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				bad = append(bad, invalidProperty{Message: fmt.Sprintf("%s is not a valid number", v), Error: "INVALID_DECIMAL", Name: name})
				continue
			}
		case "datetime", "date":
			ms, ok := epochMillis(v)
			if !ok {
				bad = append(bad, invalidProperty{Message: fmt.Sprintf("%s is not a valid date; use epoch milliseconds or ISO 8601", v), Error: "INVALID_DATE", Name: name})
				continue
			}
			v = time.UnixMilli(ms).UTC().Format(hsTime)
		}
		out[name] = v
	}
	if len(bad) > 0 {
		list, _ := jsonString(bad)
		e := badRequest("Property values were not valid: %s", list)
		for _, b := range bad {
			e.errors = append(e.errors, hsErrorDetail{Message: b.Message, Code: b.Error, Context: map[string][]string{"propertyName": {b.Name}}})
		}
		return nil, e
	}
	return out, nil
}

// insert stores a new record of type t; the caller holds s.mu.
func (s *Sandbox) insert(t *sandboxType, props map[string]string, at time.Time) *record {
	s.nextID[t.name]++
	rec := &record{id: s.nextID[t.name], props: map[string]string{}, created: at, updated: at}
	for k, v := range props {
		if v != "" {
			rec.props[k] = v
		}
	}
	s.stamp(t, rec)
	set := s.records[t.name]
	set.byID[strconv.FormatInt(rec.id, 10)] = rec
	set.order = append(set.order, rec)
	return rec
}

// apply writes changed properties; the caller holds s.mu.
func (s *Sandbox) apply(t *sandboxType, rec *record, props map[string]string, at time.Time) {
	for k, v := range props {
		if v == "" {
			delete(rec.props, k)
		} else {
			rec.props[k] = v
		}
	}
	rec.updated = at
	s.stamp(t, rec)
}

func (s *Sandbox) stamp(t *sandboxType, rec *record) {
	rec.props["hs_object_id"] = strconv.FormatInt(rec.id, 10)
	rec.props[t.created] = rec.created.UTC().Format(hsTime)
	rec.props[t.modified] = rec.updated.UTC().Format(hsTime)
}

// render returns the record as HubSpot sends it: the requested properties
// (the type's defaults when none), unset ones as null, unknown ones left out.
func render(t *sandboxType, rec *record, names []string) hsObject {
	if len(names) == 0 {
		names = t.defaults
	}
	props := map[string]*string{}
	for _, n := range append(slices.Clone(names), "hs_object_id", t.created, t.modified) {
		n = strings.TrimSpace(n)
		if _, known := t.byName[n]; !known {
			continue
		}
		if v, ok := rec.props[n]; ok {
			props[n] = &v
		} else {
			props[n] = nil
		}
	}
	return hsObject{ID: strconv.FormatInt(rec.id, 10), Properties: props,
		CreatedAt: rec.created.UTC().Format(hsTime), UpdatedAt: rec.updated.UTC().Format(hsTime)}
}

// splitNames reads a comma-separated properties query parameter.
func splitNames(v []string) []string {
	var out []string
	for _, s := range v {
		for _, n := range strings.Split(s, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}
