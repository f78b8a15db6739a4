package linkedinads

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
)

// searchCampaigns answers the adCampaigns search finder with cursor paging.
func (s *Sandbox) searchCampaigns(w http.ResponseWriter, a *sbAccount, p map[string]string) {
	if p["q"] != "search" {
		writeError(w, 400, "ILLEGAL_ARGUMENT", "Invalid query parameters passed to request: q must be search")
		return
	}
	criteria := map[string][]string{}
	if raw := p["search"]; raw != "" {
		v, err := Decode(raw)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			writeError(w, 400, "ILLEGAL_ARGUMENT", "Invalid param search: expected (field:(values:List(…)))")
			return
		}
		for field, spec := range m {
			sm, _ := spec.(map[string]any)
			vals, ok := sm["values"].([]any)
			if !ok || !slices.Contains([]string{"status", "type", "name", "id", "campaignGroup", "test"}, field) {
				writeError(w, 400, "ILLEGAL_ARGUMENT", "Invalid param search: unknown criterion "+field)
				return
			}
			for _, x := range vals {
				str, _ := x.(string)
				criteria[field] = append(criteria[field], str)
			}
		}
	}
	size, err := strconv.Atoi(p["pageSize"])
	if p["pageSize"] == "" {
		size, err = 100, nil
	}
	if err != nil || size < 1 || size > 1000 {
		writeError(w, 400, "ILLEGAL_ARGUMENT", "Invalid param pageSize: must be between 1 and 1000")
		return
	}
	offset := 0
	if tok := p["pageToken"]; tok != "" {
		dec, err := Decode(tok)
		str, isLeaf := dec.(string)
		b, err2 := base64.StdEncoding.DecodeString(str)
		if err != nil || err2 != nil || !isLeaf {
			writeError(w, 400, "ILLEGAL_ARGUMENT", "Invalid param pageToken")
			return
		}
		offset, _ = strconv.Atoi(string(b))
	}
	var matched []any
	for _, c := range a.Campaigns {
		values := map[string]string{"status": c.Status, "type": c.Type, "name": c.Name, "id": c.ID, "campaignGroup": c.Group, "test": "false"}
		ok := true
		for field, want := range criteria {
			ok = ok && slices.Contains(want, values[field])
		}
		if ok {
			matched = append(matched, a.campaignJSON(c))
		}
	}
	offset = min(max(offset, 0), len(matched))
	end := min(offset+size, len(matched))
	page := matched[offset:end]
	if page == nil {
		page = []any{}
	}
	meta := map[string]any{}
	if end < len(matched) {
		meta["nextPageToken"] = base64.StdEncoding.EncodeToString([]byte(strconv.Itoa(end)))
	}
	writeJSON(w, 200, map[string]any{"elements": page, "metadata": meta, "paging": map[string]any{"start": offset, "count": size, "links": []any{}}})
}

// patchCampaign applies {"patch": {"$set": {…}}} and answers 204.
func (s *Sandbox) patchCampaign(w http.ResponseWriter, r *http.Request, c *sbCampaign) {
	var body struct {
		Patch struct {
			Set map[string]any `json:"$set"`
		} `json:"patch"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&body); err != nil || len(body.Patch.Set) == 0 {
		writeError(w, 400, "ILLEGAL_ARGUMENT", "Request body must be {\"patch\": {\"$set\": {…}}}")
		return
	}
	for k, v := range body.Patch.Set {
		status, _ := v.(string)
		if k != "status" || !slices.Contains([]string{"ACTIVE", "PAUSED", "ARCHIVED", "CANCELED", "DRAFT"}, status) {
			writeError(w, 422, "FIELD_VALUE_INVALID", "/status: invalid value, or the sandbox does not update "+k)
			return
		}
		if c.Status == "ARCHIVED" && status == "ACTIVE" {
			writeError(w, 400, "ILLEGAL_ARGUMENT", "Cannot activate an archived campaign; unarchive it to PAUSED first")
			return
		}
		c.Status = status
	}
	w.Header().Set("X-RestLi-Protocol-Version", "2.0.0")
	w.WriteHeader(http.StatusNoContent)
}
