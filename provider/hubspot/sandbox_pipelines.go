package hubspot

import (
	"net/http"
)

// sandboxStage is a seed pipeline stage: id, label, probability or ticket state.
type sandboxStage struct{ id, label, probability string }

const pipelineStamp = "2024-09-02T08:00:00.000Z"

// dealPipelines are HubSpot's default sales pipeline (its real stage ids) and
// a renewals pipeline with numeric stage ids, as custom pipelines have.
var dealPipelines = []struct {
	id, label string
	stages    []sandboxStage
}{
	{"default", "Sales Pipeline", []sandboxStage{
		{"appointmentscheduled", "Appointment Scheduled", "0.2"},
		{"qualifiedtobuy", "Qualified To Buy", "0.4"},
		{"presentationscheduled", "Presentation Scheduled", "0.6"},
		{"decisionmakerboughtin", "Decision Maker Bought-In", "0.8"},
		{"contractsent", "Contract Sent", "0.9"},
		{"closedwon", "Closed Won", "1.0"},
		{"closedlost", "Closed Lost", "0.0"},
	}},
	{"31877542", "Renewals & Expansion", []sandboxStage{
		{"70313301", "Renewal Due (120 days)", "0.5"},
		{"70313302", "Usage Review", "0.7"},
		{"70313303", "Quote Sent", "0.85"},
		{"70313304", "Renewed", "1.0"},
		{"70313305", "Churned", "0.0"},
	}},
}

func pipelineOptions() []string {
	var out []string
	for _, p := range dealPipelines {
		out = append(out, p.id+"="+p.label)
	}
	return out
}

func stageOptions() []string {
	var out []string
	for _, p := range dealPipelines {
		for _, st := range p.stages {
			out = append(out, st.id+"="+st.label)
		}
	}
	return out
}

// stagePipeline returns the deal pipeline a stage id belongs to.
func stagePipeline(stage string) string {
	for _, p := range dealPipelines {
		for _, st := range p.stages {
			if st.id == stage {
				return p.id
			}
		}
	}
	return ""
}

func sandboxPipelines() map[string][]hsPipeline {
	var deals []hsPipeline
	for i, p := range dealPipelines {
		hp := hsPipeline{ID: p.id, Label: p.label, DisplayOrder: i, CreatedAt: pipelineStamp, UpdatedAt: pipelineStamp}
		for j, st := range p.stages {
			closed := "false"
			if st.probability == "1.0" || st.probability == "0.0" {
				closed = "true"
			}
			hp.Stages = append(hp.Stages, hsPipelineStage{ID: st.id, Label: st.label, DisplayOrder: j,
				Metadata: map[string]string{"isClosed": closed, "probability": st.probability}, CreatedAt: pipelineStamp, UpdatedAt: pipelineStamp,
				WritePermissions: "CRM_PERMISSIONS_ENFORCEMENT"})
		}
		deals = append(deals, hp)
	}
	tickets := hsPipeline{ID: "0", Label: "Support Pipeline", CreatedAt: pipelineStamp, UpdatedAt: pipelineStamp}
	for j, st := range []sandboxStage{{"1", "New", "OPEN"}, {"2", "Waiting on contact", "OPEN"}, {"3", "Waiting on us", "OPEN"}, {"4", "Closed", "CLOSED"}} {
		tickets.Stages = append(tickets.Stages, hsPipelineStage{ID: st.id, Label: st.label, DisplayOrder: j,
			Metadata: map[string]string{"ticketState": st.probability}, CreatedAt: pipelineStamp, UpdatedAt: pipelineStamp,
			WritePermissions: "CRM_PERMISSIONS_ENFORCEMENT"})
	}
	return map[string][]hsPipeline{"deals": deals, "tickets": {tickets}}
}

func (s *Sandbox) handlePipelines(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("type")
	if name == "deal" || name == "0-3" {
		name = "deals"
	}
	if name == "ticket" || name == "0-5" {
		name = "tickets"
	}
	ps, ok := s.pipelines[name]
	if !ok {
		s.writeAPIError(w, unknownType(r.PathValue("type")))
		return
	}
	s.writeJSON(w, http.StatusOK, hsPipelines{Results: ps})
}

func (s *Sandbox) handleProperties(w http.ResponseWriter, r *http.Request) {
	t, err := s.objectType(r.PathValue("type"))
	if err != nil {
		s.writeAPIError(w, err)
		return
	}
	s.writeJSON(w, http.StatusOK, hsProperties{Results: t.props})
}
