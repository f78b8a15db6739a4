package hubspot

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// HubSpot's search limits.
const (
	maxFilterGroups     = 5
	maxFiltersPerGroup  = 6
	maxFiltersTotal     = 18
	defaultSearchLimit  = 10
	sandboxSearchMaxLim = 200
)

func (s *Sandbox) handleSearch(w http.ResponseWriter, r *http.Request) {
	t, err := s.objectType(r.PathValue("type"))
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	var req hsSearchRequest
	if err := decodeBody(r, &req); err != nil {
		s.writeAPIError(w, err)
		return
	}
	if err := checkSearch(t, &req); err != nil {
		s.writeAPIError(w, err)
		return
	}
	offset := 0
	if req.After != "" {
		n, perr := strconv.Atoi(req.After)
		if perr != nil || n < 0 {
			s.writeAPIError(w, badRequest("after must be a non-negative integer offset, got %q", req.After))
			return
		}
		offset = n
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var hits []*record
	for _, rec := range s.records[t.name].order {
		if matchQuery(t, rec, req.Query) && s.matchGroups(t, rec, req.FilterGroups) {
			hits = append(hits, rec)
		}
	}
	sortRecords(t, hits, req.Sorts)
	total := len(hits)
	page := hsPage{Total: &total, Results: []hsObject{}}
	for i := offset; i < len(hits) && i < offset+req.Limit; i++ {
		page.Results = append(page.Results, render(t, hits[i], req.Properties))
	}
	if offset+req.Limit < len(hits) {
		page.Paging = &hsPaging{Next: &hsNext{After: strconv.Itoa(offset + req.Limit)}}
	}
	s.writeJSON(w, http.StatusOK, page)
}

// checkSearch rejects what HubSpot's search endpoint rejects and fills in
// the default limit.
func checkSearch(t *sandboxType, req *hsSearchRequest) *apiError {
	switch {
	case req.Limit == 0:
		req.Limit = defaultSearchLimit
	case req.Limit < 0 || req.Limit > sandboxSearchMaxLim:
		return badRequest("limit must be between 1 and %d", sandboxSearchMaxLim)
	}
	if len(req.FilterGroups) > maxFilterGroups {
		return badRequest("Too many filter groups: %d (max %d)", len(req.FilterGroups), maxFilterGroups)
	}
	total := 0
	for _, g := range req.FilterGroups {
		if len(g.Filters) > maxFiltersPerGroup {
			return badRequest("Too many filters in a filter group: %d (max %d)", len(g.Filters), maxFiltersPerGroup)
		}
		total += len(g.Filters)
		for _, f := range g.Filters {
			if err := checkFilter(t, f); err != nil {
				return err
			}
		}
	}
	if total > maxFiltersTotal {
		return badRequest("Too many filters: %d (max %d)", total, maxFiltersTotal)
	}
	if len(req.Sorts) > 1 {
		return badRequest("Only one sort is supported")
	}
	for _, so := range req.Sorts {
		if _, ok := t.byName[so.PropertyName]; !ok {
			return badRequest("Cannot sort by unknown property %s", so.PropertyName)
		}
		if so.Direction != "ASCENDING" && so.Direction != "DESCENDING" {
			return badRequest("Sort direction must be ASCENDING or DESCENDING, got %q", so.Direction)
		}
	}
	return nil
}

func checkFilter(t *sandboxType, f searchFilter) *apiError {
	if assoc, ok := strings.CutPrefix(f.PropertyName, "associations."); ok {
		if _, known := typeAliases[assoc]; !known {
			return badRequest("There was a problem with the request: unknown association type %s", assoc)
		}
	} else if _, ok := t.byName[f.PropertyName]; !ok {
		return badRequest("There was a problem with the request: property %s does not exist on %s", f.PropertyName, t.name)
	}
	kind, ok := operators[f.Operator]
	if !ok {
		return badRequest("Invalid operator %q", f.Operator)
	}
	switch {
	case kind == operandScalar && f.Value == nil:
		return badRequest("Filter on %s with operator %s requires a value", f.PropertyName, f.Operator)
	case kind == operandRange && (f.Value == nil || f.HighValue == nil):
		return badRequest("Filter on %s with operator BETWEEN requires value and highValue", f.PropertyName)
	case kind == operandList && len(f.Values) == 0:
		return badRequest("Filter on %s with operator %s requires values", f.PropertyName, f.Operator)
	}
	return nil
}

// matchQuery reports whether every word of the free-text query occurs in
// one of the type's searchable properties.
func matchQuery(t *sandboxType, rec *record, query string) bool {
	for _, word := range strings.Fields(strings.ToLower(query)) {
		found := false
		for _, p := range t.searchable {
			if strings.Contains(strings.ToLower(rec.props[p]), word) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// matchGroups ORs the groups and ANDs each group's filters; the caller holds s.mu.
func (s *Sandbox) matchGroups(t *sandboxType, rec *record, groups []filterGroup) bool {
	if len(groups) == 0 {
		return true
	}
	for _, g := range groups {
		all := true
		for _, f := range g.Filters {
			if !s.matchOne(t, rec, f) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (s *Sandbox) matchOne(t *sandboxType, rec *record, f searchFilter) bool {
	if assoc, ok := strings.CutPrefix(f.PropertyName, "associations."); ok {
		var ids []string
		for _, e := range s.assocs[assocKey{t.name, rec.id, typeAliases[assoc]}] {
			ids = append(ids, strconv.FormatInt(e.toID, 10))
		}
		return matchFilter(f, ids, kindNumber)
	}
	var values []string
	if v, ok := rec.props[f.PropertyName]; ok {
		values = []string{v}
	}
	return matchFilter(f, values, t.kind(f.PropertyName))
}

// sortRecords orders hits by the requested sort, or by id; unset values last.
func sortRecords(t *sandboxType, hits []*record, sorts []hsSort) {
	if len(sorts) == 0 {
		return
	}
	name, desc := sorts[0].PropertyName, sorts[0].Direction == "DESCENDING"
	kind := t.kind(name)
	slices.SortStableFunc(hits, func(a, b *record) int {
		va, oka := a.props[name]
		vb, okb := b.props[name]
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return 1
		case !okb:
			return -1
		}
		c, _ := compareValues(va, vb, kind)
		if desc {
			return -c
		}
		return c
	})
}
