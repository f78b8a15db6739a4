package hubspot

import (
	"fmt"
	"net/http"
	"strings"
)

// checkRules enforces HubSpot's cross-property rules: unique contact email,
// a deal stage within its pipeline. It fills in a deal's pipeline and first
// stage when a create leaves them out. The caller holds s.mu.
func (s *Sandbox) checkRules(t *sandboxType, existing *record, props map[string]string) *apiError {
	switch t.name {
	case "contacts":
		email := strings.ToLower(props["email"])
		if email == "" {
			return nil
		}
		for _, rec := range s.records["contacts"].order {
			if rec != existing && strings.ToLower(rec.props["email"]) == email {
				return &apiError{status: http.StatusConflict, category: "CONFLICT", message: fmt.Sprintf("Contact already exists. Existing ID: %d", rec.id)}
			}
		}
	case "deals":
		pipeline, stage := props["pipeline"], props["dealstage"]
		if existing != nil {
			if pipeline == "" {
				pipeline = existing.props["pipeline"]
			}
			if stage == "" {
				stage = existing.props["dealstage"]
			}
		}
		switch {
		case pipeline == "" && stage == "":
			pipeline, stage = dealPipelines[0].id, dealPipelines[0].stages[0].id
		case pipeline == "":
			pipeline = stagePipeline(stage)
		case stage == "":
			for _, p := range dealPipelines {
				if p.id == pipeline {
					stage = p.stages[0].id
				}
			}
		}
		if stagePipeline(stage) != pipeline {
			return badRequest("Property values were not valid: dealstage %s is not a stage of pipeline %s", stage, pipeline)
		}
		props["pipeline"], props["dealstage"] = pipeline, stage
	}
	return nil
}
