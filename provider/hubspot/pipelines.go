package hubspot

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// Pipeline is a deal or ticket pipeline with its stages in order.
type Pipeline struct {
	ID           string  `json:"id"`
	Label        string  `json:"label"`
	DisplayOrder int     `json:"display_order"`
	Archived     bool    `json:"archived"`
	Stages       []Stage `json:"stages"`
}

// Stage is one pipeline stage. ID is what dealstage holds.
type Stage struct {
	ID           string `json:"id"`
	Label        string `json:"label"`
	DisplayOrder int    `json:"display_order"`
	// Probability is the deal stage's win probability (0–1); absent for tickets.
	Probability *float64 `json:"probability,omitempty"`
	// Closed is true for won/lost deal stages and closed ticket states.
	Closed   bool `json:"closed"`
	Archived bool `json:"archived"`
}

// PipelineList is the result of crm_pipelines.
type PipelineList struct {
	Items []Pipeline `json:"items"`
}

func pipelinesTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "crm_pipelines", Domain: domain, Provider: Provider, Title: "HubSpot pipelines",
		Description: "List HubSpot deal or ticket pipelines with their stages' ids and labels. Use it before filtering or moving deals by dealstage.",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, Description: "every pipeline of the object type with its stages"},
		},
		Properties: map[string]*jsonschema.Schema{
			"object_type": {Type: "string", Enum: []any{"deals", "tickets"}},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in struct {
				ObjectType string `json:"object_type"`
			}
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			if in.ObjectType == "" {
				in.ObjectType = "deals"
			}
			var p hsPipelines
			if err := a.c.Do(ctx, request(call, http.MethodGet, a.crm("pipelines", false)+"/"+in.ObjectType, nil), &p); err != nil {
				return nil, fmt.Errorf("hubspot: list %s pipelines: %w", in.ObjectType, err)
			}
			return toPipelines(p), nil
		},
	}
}

func toPipelines(p hsPipelines) PipelineList {
	out := PipelineList{Items: make([]Pipeline, 0, len(p.Results))}
	for _, hp := range p.Results {
		pl := Pipeline{ID: hp.ID, Label: hp.Label, DisplayOrder: hp.DisplayOrder, Archived: hp.Archived, Stages: make([]Stage, 0, len(hp.Stages))}
		for _, hs := range hp.Stages {
			st := Stage{ID: hs.ID, Label: hs.Label, DisplayOrder: hs.DisplayOrder, Archived: hs.Archived,
				Closed: hs.Metadata["isClosed"] == "true" || hs.Metadata["ticketState"] == "CLOSED"}
			if v, err := strconv.ParseFloat(hs.Metadata["probability"], 64); err == nil {
				st.Probability = &v
			}
			pl.Stages = append(pl.Stages, st)
		}
		out.Items = append(out.Items, pl)
	}
	return out
}
