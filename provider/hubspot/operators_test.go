package hubspot

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/providertest"
)

// operatorWalk is one search filter operator sent by crm_tasks.list
// through the spec-checked sandbox: a wrong operator string is refused as
// HubSpot's Filter enum refuses it, and want picks the seed tasks HubSpot
// would answer, read from the seed's own fields rather than from the
// sandbox's matching.
type operatorWalk struct {
	op, filter string
	want       func(seedTask) bool
}

// operatorWalks filters on properties every seed task holds (status,
// priority, type, subject, due time), so the negative operators' answers do
// not hang on how HubSpot treats an unset property, and on hs_task_body,
// which four seed tasks leave unset, for HAS_PROPERTY.
func operatorWalks() []operatorWalk {
	at := func(day, hour int) time.Time { return seedBase.Add(time.Duration(day*24+hour) * time.Hour) }
	due := func(t seedTask) time.Time { return at(t.dueDay, 8) } // as seedEngagements sets hs_timestamp
	ms := func(t time.Time) string { return strconv.Quote(strconv.FormatInt(t.UnixMilli(), 10)) }
	edge := at(65, 8) // a task's due time exactly, so LT and LTE differ
	low, high := at(63, 0), at(67, 12)
	halcyon := func(t seedTask) bool { return slices.Contains(strings.Fields(t.subject), "Halcyon") }
	return []operatorWalk{
		{"EQ", `{"property":"hs_task_status","operator":"EQ","value":"NOT_STARTED"}`,
			func(t seedTask) bool { return t.status == "NOT_STARTED" }},
		{"NEQ", `{"property":"hs_task_status","operator":"NEQ","value":"NOT_STARTED"}`,
			func(t seedTask) bool { return t.status != "NOT_STARTED" }},
		{"IN", `{"property":"hs_task_priority","operator":"IN","value":["HIGH","LOW"]}`,
			func(t seedTask) bool { return t.priority == "HIGH" || t.priority == "LOW" }},
		{"NOT_IN", `{"property":"hs_task_type","operator":"NOT_IN","value":["EMAIL","CALL"]}`,
			func(t seedTask) bool { return t.kind != "EMAIL" && t.kind != "CALL" }},
		{"CONTAINS_TOKEN", `{"property":"hs_task_subject","operator":"CONTAINS_TOKEN","value":"Halcyon"}`, halcyon},
		{"NOT_CONTAINS_TOKEN", `{"property":"hs_task_subject","operator":"NOT_CONTAINS_TOKEN","value":"Halcyon"}`,
			func(t seedTask) bool { return !halcyon(t) }},
		{"HAS_PROPERTY", `{"property":"hs_task_body","operator":"HAS_PROPERTY"}`,
			func(t seedTask) bool { return t.body != "" }},
		{"NOT_HAS_PROPERTY", `{"property":"hs_task_body","operator":"NOT_HAS_PROPERTY"}`,
			func(t seedTask) bool { return t.body == "" }},
		{"LT", `{"property":"hs_timestamp","operator":"LT","value":` + ms(edge) + `}`,
			func(t seedTask) bool { return due(t).Before(edge) }},
		{"LTE", `{"property":"hs_timestamp","operator":"LTE","value":` + ms(edge) + `}`,
			func(t seedTask) bool { return !due(t).After(edge) }},
		{"GT", `{"property":"hs_timestamp","operator":"GT","value":` + ms(edge) + `}`,
			func(t seedTask) bool { return due(t).After(edge) }},
		{"GTE", `{"property":"hs_timestamp","operator":"GTE","value":` + ms(edge) + `}`,
			func(t seedTask) bool { return !due(t).Before(edge) }},
		// Bounds between due times, so the answer does not hang on whether
		// HubSpot's BETWEEN includes them.
		{"BETWEEN", `{"property":"hs_timestamp","operator":"BETWEEN","value":[` + ms(low) + `,` + ms(high) + `]}`,
			func(t seedTask) bool { return due(t).After(low) && due(t).Before(high) }},
	}
}

// operatorSteps are the walk's steps of every operator, each checking the
// tasks answered.
func operatorSteps() []providertest.Step {
	var steps []providertest.Step
	for _, w := range operatorWalks() {
		var want []string
		for _, t := range seedTasks {
			if w.want(t) {
				want = append(want, t.subject)
			}
		}
		slices.Sort(want)
		steps = append(steps, providertest.Step{
			Input:  `{"rationale":"r","action":"list","limit":50,"filter":` + w.filter + `}`,
			Answer: func(out map[string]any) error { return answeredSubjects(out, w.op, want) },
		})
	}
	return steps
}

// answeredSubjects says how a crm_tasks.list result differs from the tasks
// want (their subjects, sorted).
func answeredSubjects(out map[string]any, op string, want []string) error {
	items, _ := out["items"].([]any)
	var got []string
	for _, it := range items {
		item, _ := it.(map[string]any)
		props, _ := item["properties"].(map[string]any)
		subject, _ := props["hs_task_subject"].(string)
		got = append(got, subject)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return fmt.Errorf("%s answered tasks %q, want %q", op, got, want)
	}
	return nil
}

// TestEveryOperatorIsWalked: the walk sends every operator the adapter
// accepts, each with a filter that keeps some seed tasks and drops others,
// so a wrong operator or a wrong reading of one cannot pass.
func TestEveryOperatorIsWalked(t *testing.T) {
	t.Parallel()
	var walked []string
	for _, w := range operatorWalks() {
		walked = append(walked, w.op)
		kept := 0
		for _, task := range seedTasks {
			if w.want(task) {
				kept++
			}
		}
		if kept == 0 || kept == len(seedTasks) {
			t.Errorf("%s keeps %d of %d seed tasks: pick a filter that tells its answer apart", w.op, kept, len(seedTasks))
		}
		if !strings.Contains(w.filter, `"operator":"`+w.op+`"`) {
			t.Errorf("%s walks the filter %s", w.op, w.filter)
		}
	}
	slices.Sort(walked)
	if accepted := slices.Sorted(maps.Keys(operators)); !slices.Equal(walked, accepted) {
		t.Errorf("walked operators %v, the adapter accepts %v", walked, accepted)
	}
}
