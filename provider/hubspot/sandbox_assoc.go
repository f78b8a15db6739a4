package hubspot

import (
	"net/http"
	"strconv"
)

// assocKey names one record's associations to one object type.
type assocKey struct {
	fromType string
	fromID   int64
	toType   string
}

// assocEdge is one association from a record.
type assocEdge struct {
	toID   int64
	typeID int
}

// assocTypeByID returns the direction of a default association type id.
func assocTypeByID(id int) (from, to string, ok bool) {
	for pair, tid := range defaultAssocTypes {
		if tid == id {
			return pair[0], pair[1], true
		}
	}
	return "", "", false
}

// associate links two records both ways with the default types and reports
// the type ids written; the caller holds s.mu.
func (s *Sandbox) associate(fromType string, fromID int64, toType string, toID int64) []hsAssocSpecResult {
	add := func(ft string, fid int64, tt string, tid int64) hsAssocSpecResult {
		typeID := defaultAssocTypes[[2]string{ft, tt}]
		k := assocKey{ft, fid, tt}
		exists := false
		for _, e := range s.assocs[k] {
			if e.toID == tid {
				exists = true
			}
		}
		if !exists {
			s.assocs[k] = append(s.assocs[k], assocEdge{toID: tid, typeID: typeID})
		}
		return hsAssocSpecResult{From: hsRef{ID: strconv.FormatInt(fid, 10)}, To: hsRef{ID: strconv.FormatInt(tid, 10)},
			AssociationSpec: hsAssocSpec{Category: "HUBSPOT_DEFINED", TypeID: typeID}}
	}
	return []hsAssocSpecResult{add(fromType, fromID, toType, toID), add(toType, toID, fromType, fromID)}
}

// assocTypes resolves the from and to object types of a v4 path.
func (s *Sandbox) assocTypes(r *http.Request) (from, to *sandboxType, err *apiError) {
	if from, err = s.objectType(r.PathValue("from")); err != nil {
		return nil, nil, err
	}
	if to, err = s.objectType(r.PathValue("to")); err != nil {
		return nil, nil, err
	}
	if _, ok := defaultAssocTypes[[2]string{from.name, to.name}]; !ok {
		return nil, nil, badRequest("%s cannot be associated with %s", from.name, to.name)
	}
	return from, to, nil
}

func (s *Sandbox) handleAssocList(w http.ResponseWriter, r *http.Request) {
	from, to, err := s.assocTypes(r)
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	limit, err := queryLimit(r.URL.Query().Get("limit"), 500, 500)
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	offset := 0
	if a := r.URL.Query().Get("after"); a != "" {
		n, perr := strconv.Atoi(a)
		if perr != nil || n < 0 {
			s.writeAPIError(w, badRequest("after must be a non-negative integer, got %q", a))
			return
		}
		offset = n
	}
	fromID, perr := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if perr != nil {
		s.writeAPIError(w, badRequest("objectId must be numeric, got %q", r.PathValue("id")))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	edges := s.assocs[assocKey{from.name, fromID, to.name}]
	page := hsAssocPage{Results: []hsAssocResult{}}
	for i := offset; i < len(edges) && i < offset+limit; i++ {
		page.Results = append(page.Results, hsAssocResult{ToObjectID: hsObjectID(strconv.FormatInt(edges[i].toID, 10)),
			AssociationTypes: []hsAssocLabel{{Category: "HUBSPOT_DEFINED", TypeID: edges[i].typeID}}})
	}
	if offset+limit < len(edges) {
		page.Paging = &hsPaging{Next: &hsNext{After: strconv.Itoa(offset + limit)}}
	}
	s.writeJSON(w, http.StatusOK, page)
}

func (s *Sandbox) handleAssocCreate(w http.ResponseWriter, r *http.Request) {
	from, to, err := s.assocTypes(r)
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fromRec, ok := s.records[from.name].byID[r.PathValue("id")]
	if !ok {
		s.writeAPIError(w, notFound(from.name, r.PathValue("id")))
		return
	}
	toRec, ok := s.records[to.name].byID[r.PathValue("toId")]
	if !ok {
		s.writeAPIError(w, notFound(to.name, r.PathValue("toId")))
		return
	}
	at := s.now().UTC().Format(hsTime)
	s.writeJSON(w, http.StatusOK, hsBatchResponse{Status: "COMPLETE", Results: s.associate(from.name, fromRec.id, to.name, toRec.id),
		StartedAt: at, CompletedAt: at})
}
