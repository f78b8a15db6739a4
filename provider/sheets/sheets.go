// Package sheets adapts the Google Sheets API v4 values endpoints to the
// sheets_values tool (read a range, append rows), and provides a sandbox of
// it. The account id labels the Google account; the spreadsheet is an input.
package sheets

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

// Provider is the provider key of Google Sheets accounts and tokens.
const Provider = "sheets"

// DefaultBaseURL is the root of the real Sheets API.
const DefaultBaseURL = "https://sheets.googleapis.com"

// maxAppendRows bounds one append call.
const maxAppendRows = 500

// Options returns the upstream client options for Sheets at baseURL (OAuth
// bearer token), Google's usage limits read as RATE_LIMITED (googleapi.Classify).
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Timeout: 15 * time.Second, Classify: googleapi.Classify}
}

// Tools returns sheets_values calling Sheets through c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	v := &values{c: c}
	cellValue := registry.Scalar("", true)
	return []gtmgate.Tool{{
		Name: "sheets_values", Domain: "data", Title: "Google Sheets values", Provider: Provider,
		Description: "Read a range of a Google Sheet, or append rows below the table in a range (entered as if typed).",
		Actions: []gtmgate.Action{
			{Name: "get", Description: "Read the values of range.", Category: gtmgate.CategoryDataQuery,
				Required: []string{"spreadsheet_id", "range"}},
			{Name: "append", Description: "Append values as new rows after the table found in range.", Category: gtmgate.CategoryDataQuery,
				Mutating: true, Additive: true, Required: []string{"spreadsheet_id", "range", "values"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"spreadsheet_id": {Type: "string", Pattern: `^[A-Za-z0-9_-]{10,100}$`,
				Description: "The id in its URL."},
			"range": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(250),
				Description: "A1 notation or a sheet name."},
			"value_render_option": {Type: "string", Enum: []any{"FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"}},
			"major_dimension":     {Type: "string", Enum: []any{"ROWS", "COLUMNS"}},
			"values": {Type: "array", MinItems: jsonschema.Ptr(1), MaxItems: jsonschema.Ptr(maxAppendRows),
				Items: &jsonschema.Schema{Type: "array", MaxItems: jsonschema.Ptr(200), Items: cellValue}},
		},
		Run: v.run,
	}}
}

type values struct{ c *upstream.Client }

type input struct {
	SpreadsheetID     string  `json:"spreadsheet_id"`
	Range             string  `json:"range"`
	ValueRenderOption string  `json:"value_render_option"`
	MajorDimension    string  `json:"major_dimension"`
	Values            [][]any `json:"values"`
}

// ValueRange is a range and its values as get returns them.
type ValueRange struct {
	Range          string  `json:"range"`
	MajorDimension string  `json:"major_dimension"`
	Values         [][]any `json:"values"`
}

// AppendResult says where appended rows landed.
type AppendResult struct {
	TableRange     string `json:"table_range,omitempty"`
	UpdatedRange   string `json:"updated_range"`
	UpdatedRows    int    `json:"updated_rows"`
	UpdatedColumns int    `json:"updated_columns"`
	UpdatedCells   int    `json:"updated_cells"`
}

func (v *values) run(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in input
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	rng, err := validRange(in.Range)
	if err != nil {
		return nil, err
	}
	path := "/" + v.c.APIVersion() + "/spreadsheets/" + url.PathEscape(in.SpreadsheetID) + "/values/" + rng
	if call.Action.Name == "append" {
		return v.append(ctx, call, path, &in)
	}
	return v.get(ctx, call, path, &in)
}

// valueRange is the API's ValueRange (values.get).
type valueRange struct {
	Range          string  `json:"range"`
	MajorDimension string  `json:"majorDimension"`
	Values         [][]any `json:"values"`
}

// appendValuesResponse is the part of an AppendValuesResponse (values.append)
// the tool reads.
type appendValuesResponse struct {
	TableRange string `json:"tableRange"`
	Updates    struct {
		UpdatedRange   string `json:"updatedRange"`
		UpdatedRows    int    `json:"updatedRows"`
		UpdatedColumns int    `json:"updatedColumns"`
		UpdatedCells   int    `json:"updatedCells"`
	} `json:"updates"`
}

func (v *values) get(ctx context.Context, call *gtmgate.Call, path string, in *input) (*ValueRange, error) {
	q := url.Values{}
	if in.ValueRenderOption != "" {
		q.Set("valueRenderOption", in.ValueRenderOption)
	}
	if in.MajorDimension != "" {
		q.Set("majorDimension", in.MajorDimension)
	}
	var resp valueRange
	if err := v.c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: path, Query: q, Token: call.Token}, &resp); err != nil {
		return nil, fmt.Errorf("sheets: get %s: %w", in.Range, err)
	}
	if resp.Values == nil {
		resp.Values = [][]any{}
	}
	return &ValueRange{Range: resp.Range, MajorDimension: resp.MajorDimension, Values: resp.Values}, nil
}

func (v *values) append(ctx context.Context, call *gtmgate.Call, path string, in *input) (*AppendResult, error) {
	q := url.Values{"valueInputOption": {"USER_ENTERED"}, "insertDataOption": {"INSERT_ROWS"}}
	body := map[string]any{"range": in.Range, "majorDimension": "ROWS", "values": in.Values}
	var resp appendValuesResponse
	req := &upstream.Request{Method: http.MethodPost, Path: path + ":append", Query: q, JSON: body, Mutating: true, Token: call.Token}
	if err := v.c.Do(ctx, req, &resp); err != nil {
		return nil, fmt.Errorf("sheets: append to %s: %w", in.Range, err)
	}
	u := resp.Updates
	return &AppendResult{TableRange: resp.TableRange, UpdatedRange: u.UpdatedRange, UpdatedRows: u.UpdatedRows,
		UpdatedColumns: u.UpdatedColumns, UpdatedCells: u.UpdatedCells}, nil
}
