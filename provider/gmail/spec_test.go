package gmail

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks every Gmail action against the sandbox that
// enforces the Gmail API's discovery document.
func TestEveryActionIsChecked(t *testing.T) {
	f := newFixture(t)
	fault := func() { f.sandbox.FailNext(400, 1) }
	message := list(f.MustRun(t, "email_messages", `{"rationale":"r","action":"list","limit":1}`))[0]["id"].(string)
	thread := list(f.MustRun(t, "email_threads", `{"rationale":"r","action":"list","limit":1}`))[0]["id"].(string)
	mail := `"to":["marco@northpeak.example"],"subject":"Security review documents","text":"Hi Marco, the SOC 2 report is attached."`
	providertest.Walk(t, f.Kit, f.sandbox.Spec, []providertest.ActionWalk{
		{Tool: "email_messages", Action: "list", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"list","limit":3,"label_ids":["INBOX"]}`},
			{Input: `{"rationale":"r","action":"list"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "email_messages", Action: "get", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"get","message_id":"` + message + `"}`},
			{Input: `{"rationale":"r","action":"get","message_id":"ffff"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "email_messages", Action: "search", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"search","q":"from:ravi","limit":2}`},
			{Input: `{"rationale":"r","action":"search","q":"acme"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "email_send", Action: "send", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"send",` + mail + `}`},
			{Input: `{"rationale":"r","action":"send",` + mail + `}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "email_send", Action: "draft", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"draft",` + mail + `}`},
			{Input: `{"rationale":"r","action":"draft",` + mail + `}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "email_threads", Action: "list", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"list","q":"acme"}`},
			{Input: `{"rationale":"r","action":"list"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "email_threads", Action: "get", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"get","thread_id":"` + thread + `"}`},
			{Input: `{"rationale":"r","action":"get","thread_id":"ffff"}`, WantCode: gtmgate.EUpstream}}},
	})
}
