package hubspot

import (
	"fmt"
	"net/http"
	"strconv"
)

// sandboxWrite is a create or update body; values may arrive as JSON
// numbers or booleans, which HubSpot accepts and stores as strings (the spec
// types them as strings, so the spec check refuses them where it applies).
type sandboxWrite struct {
	Properties   map[string]any       `json:"properties"`
	Associations []hsAssociationInput `json:"associations"`
}

func (b sandboxWrite) stringProperties() (map[string]string, *apiError) {
	out := make(map[string]string, len(b.Properties))
	for k, v := range b.Properties {
		if v == nil {
			out[k] = ""
			continue
		}
		s, err := formatValue(v)
		if err != nil {
			return nil, badRequest("Property values were not valid: %s %v", k, err)
		}
		out[k] = s
	}
	return out, nil
}

func (s *Sandbox) handleList(w http.ResponseWriter, r *http.Request) {
	t, err := s.objectType(r.PathValue("type"))
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	q := r.URL.Query()
	limit, err := queryLimit(q.Get("limit"), 10, 100)
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	var after int64
	if a := q.Get("after"); a != "" {
		n, perr := strconv.ParseInt(a, 10, 64)
		if perr != nil || n < 0 {
			s.writeAPIError(w, badRequest("after must be a non-negative integer, got %q", a))
			return
		}
		after = n
	}
	names := splitNames(q["properties"])
	s.mu.Lock()
	defer s.mu.Unlock()
	page := hsPage{Results: []hsObject{}}
	for _, rec := range s.records[t.name].order {
		if rec.id < after {
			continue
		}
		if len(page.Results) == limit {
			next := strconv.FormatInt(rec.id, 10)
			page.Paging = &hsPaging{Next: &hsNext{After: next,
				Link: fmt.Sprintf("https://api.hubapi.com%s?limit=%d&after=%s", r.URL.Path, limit, next)}}
			break
		}
		page.Results = append(page.Results, render(t, rec, names))
	}
	s.writeJSON(w, http.StatusOK, page)
}

func queryLimit(v string, def, max int) (int, *apiError) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		return 0, badRequest("limit must be an integer between 1 and %d, got %q", max, v)
	}
	return n, nil
}

func (s *Sandbox) handleGet(w http.ResponseWriter, r *http.Request) {
	t, err := s.objectType(r.PathValue("type"))
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.records[t.name].byID[r.PathValue("id")]
	if !ok {
		s.writeAPIError(w, notFound(t.name, r.PathValue("id")))
		return
	}
	s.writeJSON(w, http.StatusOK, render(t, rec, splitNames(r.URL.Query()["properties"])))
}

func (s *Sandbox) handleCreate(w http.ResponseWriter, r *http.Request) {
	t, err := s.objectType(r.PathValue("type"))
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	var body sandboxWrite
	if err := decodeBody(r, &body); err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, err := s.create(t, body)
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.writeJSON(w, http.StatusCreated, render(t, rec, keys(rec.props)))
}

// create validates and stores a record with its associations; the caller holds s.mu.
func (s *Sandbox) create(t *sandboxType, body sandboxWrite) (*record, *apiError) {
	raw, err := body.stringProperties()
	if err != nil {
		return nil, err
	}
	props, err := checkProperties(t, raw)
	if err != nil {
		return nil, err
	}
	for _, req := range t.required {
		if props[req] == "" {
			return nil, badRequest("Property values were not valid: [{\"isValid\":false,\"message\":\"%s is required\",\"error\":\"REQUIRED_PROPERTY\",\"name\":\"%s\"}]", req, req)
		}
	}
	if err := s.checkRules(t, nil, props); err != nil {
		return nil, err
	}
	type link struct {
		toType string
		to     *record
	}
	var links []link
	for _, a := range body.Associations {
		if len(a.Types) == 0 {
			return nil, badRequest("association to %s has no types", a.To.ID)
		}
		for _, spec := range a.Types {
			from, toType, ok := assocTypeByID(spec.TypeID)
			if !ok || from != t.name {
				return nil, badRequest("associationTypeId %d is not valid for %s", spec.TypeID, t.name)
			}
			to, ok := s.records[toType].byID[a.To.ID]
			if !ok {
				return nil, badRequest("Cannot associate with %s %s: it does not exist", toType, a.To.ID)
			}
			links = append(links, link{toType, to})
		}
	}
	rec := s.insert(t, props, s.now())
	for _, l := range links {
		s.associate(t.name, rec.id, l.toType, l.to.id)
	}
	return rec, nil
}

func (s *Sandbox) handleUpdate(w http.ResponseWriter, r *http.Request) {
	t, err := s.objectType(r.PathValue("type"))
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	var body sandboxWrite
	if err := decodeBody(r, &body); err != nil {
		s.writeAPIError(w, err)
		return
	}
	raw, err := body.stringProperties()
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	props, err := checkProperties(t, raw)
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.records[t.name].byID[r.PathValue("id")]
	if !ok {
		s.writeAPIError(w, notFound(t.name, r.PathValue("id")))
		return
	}
	if err := s.checkRules(t, rec, props); err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.apply(t, rec, props, s.now())
	s.writeJSON(w, http.StatusOK, render(t, rec, keys(rec.props)))
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
