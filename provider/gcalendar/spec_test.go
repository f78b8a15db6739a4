package gcalendar

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks every Calendar action against the sandbox
// that enforces the Calendar API's discovery document.
func TestEveryActionIsChecked(t *testing.T) {
	f := newFixture(t)
	fault := func() { f.sandbox.FailNext(400, 1) }
	window := `"time_min":"` + rfc(day(0)) + `","time_max":"` + rfc(day(7)) + `"`
	providertest.Walk(t, f.Kit, f.sandbox.Spec, []providertest.ActionWalk{
		{Tool: "calendar_events", Action: "list", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"list","limit":5,"q":"demo",` + window + `}`},
			{Input: `{"rationale":"r","action":"list"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "calendar_events", Action: "get", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"get","event_id":"ldga0001"}`},
			{Input: `{"rationale":"r","action":"get","event_id":"ldga9999"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "calendar_events", Action: "create", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"create","summary":"Pricing call","start":"` + rfc(day(3)) + `","end":"` + rfc(day(3).Add(30*60e9)) +
				`","attendees":["buyer@fernhill.example"],"add_conference":true}`},
			{Input: `{"rationale":"r","action":"create","summary":"x","start":"2030-01-02","end":"2030-01-03"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "calendar_events", Action: "update", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"update","event_id":"ldga0001","summary":"Stand-up (moved)"}`},
			{Input: `{"rationale":"r","action":"update","event_id":"ldga9999","summary":"x"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "calendar_events", Action: "delete", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"delete","event_id":"ldga0002"}`},
			{Input: `{"rationale":"r","action":"delete","event_id":"ldga0002"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "calendar_freebusy", Action: "query", Steps: []providertest.Step{
			{Input: `{"rationale":"r",` + window + `,"calendars":["alex@ledgerly.example","jordan@ledgerly.example"]}`},
			{Input: `{"rationale":"r",` + window + `}`, Before: fault, WantCode: gtmgate.EUpstream}}},
	})
}
