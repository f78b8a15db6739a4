package bigquery

import (
	"net/http"
	"strconv"
)

func (s *Sandbox) listDatasets(w http.ResponseWriter, r *http.Request) {
	datasets, ok := s.project(w, r)
	if !ok {
		return
	}
	project := r.PathValue("project")
	start, ok := offsetToken(r.URL.Query().Get("pageToken"))
	if !ok {
		googleError(w, http.StatusBadRequest, "invalid", "Invalid page token.")
		return
	}
	start = min(start, len(datasets))
	end := min(start+maxResults(r, 50), len(datasets))
	items := []map[string]any{}
	for _, d := range datasets[start:end] {
		items = append(items, map[string]any{
			"kind": "bigquery#dataset", "id": project + ":" + d.id, "friendlyName": d.friendlyName,
			"datasetReference": map[string]any{"datasetId": d.id, "projectId": project},
			"labels":           d.labels, "location": d.location,
		})
	}
	body := map[string]any{"kind": "bigquery#datasetList", "etag": "sandbox"}
	if len(items) > 0 {
		body["datasets"] = items
	}
	if end < len(datasets) {
		body["nextPageToken"] = strconv.Itoa(end)
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Sandbox) dataset(w http.ResponseWriter, r *http.Request) (*sbDataset, bool) {
	datasets, ok := s.project(w, r)
	if !ok {
		return nil, false
	}
	for _, d := range datasets {
		if d.id == r.PathValue("dataset") {
			return d, true
		}
	}
	googleError(w, http.StatusNotFound, "notFound", "Not found: Dataset "+r.PathValue("project")+":"+r.PathValue("dataset"))
	return nil, false
}

func (s *Sandbox) listTables(w http.ResponseWriter, r *http.Request) {
	d, ok := s.dataset(w, r)
	if !ok {
		return
	}
	project := r.PathValue("project")
	start, ok := offsetToken(r.URL.Query().Get("pageToken"))
	if !ok {
		googleError(w, http.StatusBadRequest, "invalid", "Invalid page token.")
		return
	}
	start = min(start, len(d.tables))
	end := min(start+maxResults(r, 50), len(d.tables))
	items := []map[string]any{}
	for _, t := range d.tables[start:end] {
		items = append(items, map[string]any{
			"kind": "bigquery#table", "id": project + ":" + d.id + "." + t.id, "type": "TABLE",
			"tableReference": map[string]any{"projectId": project, "datasetId": d.id, "tableId": t.id},
			"creationTime":   "1735689600000",
		})
	}
	body := map[string]any{"kind": "bigquery#tableList", "etag": "sandbox", "tables": items, "totalItems": len(d.tables)}
	if end < len(d.tables) {
		body["nextPageToken"] = strconv.Itoa(end)
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Sandbox) getTable(w http.ResponseWriter, r *http.Request) {
	d, ok := s.dataset(w, r)
	if !ok {
		return
	}
	project := r.PathValue("project")
	for _, t := range d.tables {
		if t.id != r.PathValue("table") {
			continue
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"kind": "bigquery#table", "id": project + ":" + d.id + "." + t.id, "type": "TABLE",
			"tableReference": map[string]any{"projectId": project, "datasetId": d.id, "tableId": t.id},
			"description":    t.description, "schema": map[string]any{"fields": t.fields},
			"numRows": i64(int64(len(t.rows))), "numBytes": i64(t.bytes(nil)), "location": d.location,
			"creationTime": "1735689600000", "lastModifiedTime": "1762905600000",
		})
		return
	}
	googleError(w, http.StatusNotFound, "notFound", "Not found: Table "+project+":"+d.id+"."+r.PathValue("table"))
}
