package console

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// heldCall is what the console knows of a held call from the admin API's
// approval: enough to say what approving it does.
type heldCall struct {
	Tool, Action, Category string
	// Account is the provider account the call acts as ("" for the
	// tenant's default), AccountLabel the tenant's label for it.
	Account, AccountLabel string
	Destructive           bool
	Input                 map[string]any
	// Result is the executed call's result ("result" of the tool's
	// outcome), nil until it ran.
	Result map[string]any
	// Before is the state the call would change, as the gateway read it
	// from the provider when it held the call (nil when it read none);
	// BeforeError why that read failed.
	Before      map[string]any
	BeforeError string
}

// gateDescription is a held call in its domain's terms: what kind of
// change it is, a title and labelled fields, read before the raw input.
type gateDescription struct {
	Kind   string // email, budget, status, deletion or call
	Title  string
	Fields []gateField
}

// gateField is one labelled line of a gateDescription. A Block value (an
// email's body) keeps its line breaks.
type gateField struct {
	Label, Value string
	Block        bool
}

// gateKinds are the domain readings of a held call, tried in order; the
// first that matches describes it, else describeCall lists its input.
var gateKinds = []struct {
	match    func(c heldCall) bool
	describe func(c heldCall) gateDescription
}{
	{func(c heldCall) bool { return c.Category == "email_send" || c.Tool == "email_send" }, describeEmail},
	{func(c heldCall) bool { return c.Action == "update_budget" }, describeBudget},
	{func(c heldCall) bool { return c.Action == "update_status" }, describeStatus},
	{func(c heldCall) bool { return stageChange(c) != "" }, describeStage},
	{func(c heldCall) bool {
		return c.Destructive || slices.Contains(deleteActions, c.Action)
	}, describeDeletion},
}

// deleteActions are the action names that delete, whether or not the
// tool marks them destructive.
var deleteActions = []string{"delete", "remove", "archive"}

// describeGate says what approving c does.
func describeGate(c heldCall) gateDescription {
	for _, k := range gateKinds {
		if k.match(c) {
			d := k.describe(c)
			if why := text(c.Input["rationale"]); why != "" {
				d.Fields = append(d.Fields, gateField{Label: "Agent's rationale", Value: why})
			}
			return d
		}
	}
	return describeCall(c)
}

func describeEmail(c heldCall) gateDescription {
	d := gateDescription{Kind: "email", Title: "Send an email"}
	if c.Action == "draft" {
		d.Title = "Save an email as a draft (nothing is sent)"
	}
	d.add("From", account(c))
	d.add("To", text(c.Input["to"]))
	d.add("Cc", text(c.Input["cc"]))
	d.add("Bcc", text(c.Input["bcc"]))
	d.add("Subject", or(text(c.Input["subject"]), "(no subject)"))
	if id := text(c.Input["thread_id"]); id != "" {
		d.add("Reply in thread", id)
	}
	if body := text(c.Input["text"]); body != "" {
		d.Fields = append(d.Fields, gateField{Label: "Body", Value: body, Block: true})
	}
	if html := text(c.Input["html"]); html != "" {
		d.Fields = append(d.Fields, gateField{Label: "HTML body (source)", Value: html, Block: true})
	}
	return d
}

// describeBudget reads a budget change as old → new with the account's
// currency: once the call ran, from its result (previous_…_budget and
// currency, as the ads tools return them); else from the budget the
// gateway read when it held the call. A gate held without that read
// (or before the gateway made it) says the current budget is unknown.
func describeBudget(c heldCall) gateDescription {
	kind := or(text(c.Input["budget_type"]), budgetKind(c.Result, c.Before))
	d := gateDescription{Kind: "budget", Title: "Change a campaign's " + kind + " budget"}
	d.add("Campaign", text(c.Input["campaign_id"]))
	d.add("Account", account(c))
	amount := money(c.Input["amount"])
	currency := or(text(c.Result["currency"]), or(text(c.Before["currency"]), text(c.Input["currency"])))
	if old := money(c.Result["previous_"+kind+"_budget"]); old != "" {
		d.add(titleCase(kind)+" budget", old+" → "+amount+" "+or(currency, "in the account's currency"))
		return d
	}
	if old := money(c.Before[kind+"_budget"]); old != "" {
		d.add(titleCase(kind)+" budget", old+" → "+amount+" "+or(currency, "in the account's currency"))
		d.readWhenHeld()
		return d
	}
	if currency == "" {
		currency = "in the account's currency"
	}
	d.add("New "+kind+" budget", amount+" "+currency+unknownBefore(c, "budget", kind))
	return d
}

// budgetKind is the budget a change moves when its input names none: the
// one its result, else the gateway's read, reports (a Meta campaign with
// only a lifetime budget), else daily.
func budgetKind(states ...map[string]any) string {
	for _, s := range states {
		if _, daily := s["daily_budget"]; daily {
			return "daily"
		}
		if _, lifetime := s["lifetime_budget"]; lifetime {
			return "lifetime"
		}
	}
	return "daily"
}

// unknownBefore says why a change shows no old value: what the gateway's
// read found, why it failed, or that the gateway has none (a gate held
// by an earlier version, a tool without a read).
func unknownBefore(c heldCall, what, kind string) string {
	switch {
	case c.BeforeError != "":
		return " (the current " + what + " could not be read: " + c.BeforeError + ")"
	case c.Before != nil && what == "budget":
		return " (the campaign had no " + kind + " budget when the call was held)"
	}
	return " (the current " + what + " is not known to the gateway)"
}

// readWhenHeld notes that an old value is the one read when the call was
// held: the provider's may have changed since.
func (d *gateDescription) readWhenHeld() {
	d.add("Current value", "read from the provider when the call was held; it may have changed since")
}

// describeStatus reads a status change as from → to: the status the call
// changed from once it ran (previous_status, as Meta's tool returns it),
// else the one the gateway read when it held the call.
func describeStatus(c heldCall) gateDescription {
	d := gateDescription{Kind: "status", Title: "Change " + withArticle(recordType(c)) + "'s status"}
	d.add(titleCase(recordType(c)), recordID(c))
	d.add("Account", account(c))
	to := text(c.Input["status"])
	if from := text(c.Result["previous_status"]); from != "" {
		d.add("Status", from+" → "+to)
		return d
	}
	if from := text(c.Before["status"]); from != "" {
		d.add("Status", from+" → "+to)
		d.readWhenHeld()
		return d
	}
	d.add("Status", "to "+to+unknownBefore(c, "status", ""))
	return d
}

// stageChange is the stage a CRM update moves a deal to ("" for none).
func stageChange(c heldCall) string {
	if c.Action != "update" {
		return ""
	}
	props, _ := c.Input["properties"].(map[string]any)
	return text(props["dealstage"])
}

func describeStage(c heldCall) gateDescription {
	d := gateDescription{Kind: "status", Title: "Move " + withArticle(recordType(c)) + " to another stage"}
	d.add(titleCase(recordType(c)), recordID(c))
	d.add("Account", account(c))
	if from, read := c.Before["stage"].(string); read {
		d.add("Stage", or(from, "(none)")+" → "+stageChange(c))
		d.readWhenHeld()
	} else {
		d.add("Stage", "to "+stageChange(c)+unknownBefore(c, "stage", ""))
	}
	props, _ := c.Input["properties"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if k != "dealstage" {
			d.add("Also sets "+k, text(props[k]))
		}
	}
	return d
}

func describeDeletion(c heldCall) gateDescription {
	d := gateDescription{Kind: "deletion", Title: "Delete " + withArticle(recordType(c))}
	if !slices.Contains(deleteActions, c.Action) {
		d.Title = strings.TrimSpace(c.Tool+" "+c.Action) + ": a destructive action"
	}
	d.add("Tool", strings.TrimSpace(c.Tool+" "+c.Action))
	d.add(titleCase(recordType(c)), recordID(c))
	d.add("Account", account(c))
	return d
}

// describeCall lists the input of a call no kind reads, field by field.
func describeCall(c heldCall) gateDescription {
	d := gateDescription{Kind: "call", Title: strings.TrimSpace(c.Tool + " " + c.Action)}
	if c.Account != "" {
		d.add("Account", account(c))
	}
	for _, k := range slices.Sorted(maps.Keys(c.Input)) {
		if k != "action" && k != "account_id" {
			d.add(k, text(c.Input[k]))
		}
	}
	return d
}

// account names the account a call acts as: the tenant's label for it
// and its id.
func account(c heldCall) string {
	switch {
	case c.Account == "":
		return "the tenant's default account"
	case c.AccountLabel == "":
		return c.Account
	}
	return c.AccountLabel + ", account " + c.Account
}

// add appends a field unless its value is empty.
func (d *gateDescription) add(label, value string) {
	if value != "" {
		d.Fields = append(d.Fields, gateField{Label: label, Value: value})
	}
}

// recordType names what a call acts on: the noun of its id field
// (event_id: event), else the singular of its tool's last word
// (crm_deals: deal, google_ads_campaigns: campaign).
func recordType(c heldCall) string {
	for _, k := range slices.Sorted(maps.Keys(c.Input)) {
		if noun, ok := strings.CutSuffix(k, "_id"); ok && k != "account_id" && k != "thread_id" {
			return strings.ReplaceAll(noun, "_", " ")
		}
	}
	word := c.Tool[strings.LastIndex(c.Tool, "_")+1:]
	if s, ok := strings.CutSuffix(word, "ies"); ok {
		return s + "y"
	}
	return strings.TrimSuffix(word, "s")
}

// recordID is the id of the record a call acts on.
func recordID(c heldCall) string {
	for _, k := range slices.Sorted(maps.Keys(c.Input)) {
		if strings.HasSuffix(k, "_id") && k != "account_id" && k != "thread_id" {
			return text(c.Input[k])
		}
	}
	return text(c.Input["id"])
}

// text writes an input value for reading: a string as it is, a list of
// strings comma-separated, anything else as compact JSON.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, p := range v {
			s, ok := p.(string)
			if !ok {
				b, _ := json.Marshal(v)
				return string(b)
			}
			parts[i] = s
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// money writes an amount in currency units with two decimals ("" when v is
// not a number).
func money(v any) string {
	switch n := v.(type) {
	case float64:
		return fmt.Sprintf("%.2f", n)
	case json.Number:
		if f, err := n.Float64(); err == nil {
			return fmt.Sprintf("%.2f", f)
		}
	}
	return ""
}

// withArticle puts "a" or "an" before a noun.
func withArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func titleCase(s string) string {
	if s == "" {
		return "Record"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// describeApproval describes the gate of an admin API approval.
func describeApproval(g obj) gateDescription {
	input, _ := g["input"].(map[string]any)
	outcome, _ := g["result"].(map[string]any)
	result, _ := outcome["result"].(map[string]any)
	destructive, _ := g["destructive"].(bool)
	before, _ := g["before"].(map[string]any)
	return describeGate(heldCall{Tool: text(g["tool"]), Action: text(g["action"]), Category: text(g["category"]),
		Account: text(g["account_id"]), AccountLabel: text(g["account_label"]), Destructive: destructive, Input: input, Result: result,
		Before: before, BeforeError: text(g["before_error"])})
}
