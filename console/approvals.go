package console

import (
	"fmt"
	"strings"
)

// approvalsGiven puts on a gate that requires more than one approval what
// the approvals page says of them: approvals_note ("1 of two approvals: by
// … at …") and, while it is pending, approve_label, the approve button
// saying which approval it gives ("Approve (second of two)"), or
// approved_by_you when decider (the signed-in actor's audit key) gave one
// already and may not give another.
func approvalsGiven(a obj, decider string) {
	required, _ := a["approvals_required"].(float64)
	if required < 2 {
		return
	}
	given, _ := a["approvals"].([]any)
	var by []string
	for _, g := range given {
		g, _ := g.(obj)
		if anyString(g["decider"]) == decider {
			a["approved_by_you"] = true
		}
		s := "by " + anyString(g["by"]) + " at " + when(g["at"])
		if reason := anyString(g["reason"]); reason != "" {
			s += " (" + reason + ")"
		}
		by = append(by, s)
	}
	note := fmt.Sprintf("%d of %s approvals: %s", len(given), count(int(required)), strings.Join(by, "; "))
	if len(by) == 0 {
		note = fmt.Sprintf("Needs %s approvals by different approvers: none yet", count(int(required)))
	}
	a["approvals_note"] = note
	if a["status"] == "pending" {
		a["approve_label"] = fmt.Sprintf("Approve (%s of %s)", ordinal(len(given)+1), count(int(required)))
	}
}

// count writes a small number as a word.
func count(n int) string {
	if words := []string{"zero", "one", "two", "three", "four"}; n >= 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

// ordinal writes a small position as a word.
func ordinal(n int) string {
	if words := []string{"", "first", "second", "third", "fourth"}; n > 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprintf("#%d", n)
}
