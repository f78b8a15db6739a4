package bigquery

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

const maxListPage = 100

// Dataset is one dataset of a project.
type Dataset struct {
	ID           string            `json:"id"`
	FriendlyName string            `json:"friendly_name,omitempty"`
	Location     string            `json:"location,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
}

// TableRef is one table in a listing.
type TableRef struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// Table is one table's schema and size.
type Table struct {
	ID          string  `json:"id"`
	Dataset     string  `json:"dataset"`
	Type        string  `json:"type,omitempty"`
	Description string  `json:"description,omitempty"`
	NumRows     int64   `json:"num_rows"`
	NumBytes    int64   `json:"num_bytes"`
	Location    string  `json:"location,omitempty"`
	Fields      []Field `json:"fields"`
}

// Field is one schema field with its description and nested fields.
type Field struct {
	Name        string  `json:"name"`
	Type        string  `json:"type"`
	Mode        string  `json:"mode,omitempty"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields,omitempty"`
}

var identPattern = `^[A-Za-z0-9_]+$`

func schemaTool(c *upstream.Client) gtmgate.Tool {
	s := &schemaReader{c: c}
	return gtmgate.Tool{
		Name: "bigquery_schema", Domain: "data", Title: "BigQuery datasets, tables and schemas", Provider: Provider,
		Description: "List the project's datasets, a dataset's tables, or one table's schema and row count, before querying.",
		Actions: []gtmgate.Action{
			{Name: "datasets", Description: "List the project's datasets.", Category: gtmgate.CategoryDataQuery},
			{Name: "tables", Description: "List the tables of dataset.", Category: gtmgate.CategoryDataQuery, Required: []string{"dataset"}},
			{Name: "table", Description: "Read the schema and size of dataset.table.", Category: gtmgate.CategoryDataQuery, Required: []string{"dataset", "table"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"dataset": {Type: "string", Pattern: identPattern, MaxLength: jsonschema.Ptr(1024)},
			"table":   {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(1024), Pattern: `^[^/]+$`},
			"limit":   {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(maxListPage))},
			"cursor":  {Type: "string"},
		},
		Run: s.run,
	}
}

type schemaReader struct{ c *upstream.Client }

type schemaInput struct {
	Dataset string `json:"dataset"`
	Table   string `json:"table"`
	Limit   int    `json:"limit"`
	Cursor  string `json:"cursor"`
}

func (s *schemaReader) run(ctx context.Context, call *gtmgate.Call) (any, error) {
	project, err := needProject(call)
	if err != nil {
		return nil, err
	}
	var in schemaInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	switch call.Action.Name {
	case "datasets":
		return s.datasets(ctx, call, project, &in)
	case "tables":
		return s.tables(ctx, call, project, &in)
	default:
		return s.table(ctx, call, project, &in)
	}
}

// listQuery returns maxResults and pageToken for a list call.
func listQuery(in *schemaInput) url.Values {
	limit := in.Limit
	if limit == 0 {
		limit = 50
	}
	v := url.Values{"maxResults": {strconv.Itoa(limit)}}
	if in.Cursor != "" {
		v.Set("pageToken", in.Cursor)
	}
	return v
}

func (s *schemaReader) datasets(ctx context.Context, call *gtmgate.Call, project string, in *schemaInput) (any, error) {
	var resp datasetList
	req := &upstream.Request{Method: http.MethodGet, Path: projectPath(s.c.APIVersion(), project, "datasets"), Query: listQuery(in), Token: call.Token}
	if err := s.c.Do(ctx, req, &resp); err != nil {
		return nil, fmt.Errorf("bigquery: list datasets: %w", err)
	}
	items := make([]Dataset, 0, len(resp.Datasets))
	for _, d := range resp.Datasets {
		items = append(items, Dataset{ID: d.DatasetReference.DatasetID, FriendlyName: d.FriendlyName, Location: d.Location, Labels: d.Labels})
	}
	return map[string]any{"items": items, "next_cursor": resp.NextPageToken}, nil
}

func (s *schemaReader) tables(ctx context.Context, call *gtmgate.Call, project string, in *schemaInput) (any, error) {
	var resp tableList
	req := &upstream.Request{Method: http.MethodGet, Path: projectPath(s.c.APIVersion(), project, "datasets", in.Dataset, "tables"), Query: listQuery(in), Token: call.Token}
	if err := s.c.Do(ctx, req, &resp); err != nil {
		return nil, fmt.Errorf("bigquery: list tables of %s: %w", in.Dataset, err)
	}
	items := make([]TableRef, 0, len(resp.Tables))
	for _, t := range resp.Tables {
		items = append(items, TableRef{ID: t.TableReference.TableID, Type: t.Type})
	}
	return map[string]any{"dataset": in.Dataset, "items": items, "total": resp.TotalItems, "next_cursor": resp.NextPageToken}, nil
}

func (s *schemaReader) table(ctx context.Context, call *gtmgate.Call, project string, in *schemaInput) (any, error) {
	var resp tableResource
	req := &upstream.Request{Method: http.MethodGet, Path: projectPath(s.c.APIVersion(), project, "datasets", in.Dataset, "tables", in.Table), Token: call.Token}
	if err := s.c.Do(ctx, req, &resp); err != nil {
		return nil, fmt.Errorf("bigquery: get table %s.%s: %w", in.Dataset, in.Table, err)
	}
	return &Table{ID: resp.TableReference.TableID, Dataset: resp.TableReference.DatasetID, Type: resp.Type,
		Description: resp.Description, NumRows: parseInt64(resp.NumRows), NumBytes: parseInt64(resp.NumBytes),
		Location: resp.Location, Fields: describe(resp.Schema.Fields)}, nil
}

func describe(fs []fieldSchema) []Field {
	out := make([]Field, 0, len(fs))
	for _, f := range fs {
		out = append(out, Field{Name: f.Name, Type: f.Type, Mode: f.Mode, Description: f.Description, Fields: describe(f.Fields)})
	}
	return out
}
