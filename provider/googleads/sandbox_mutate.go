package googleads

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// mutateFailure is a rejected operation: Google's error kind, code and message.
type mutateFailure struct{ kind, code, msg string }

// mutate applies campaigns, campaignBudgets or campaignCriteria operations
// atomically: all are checked before any is applied.
func (s *Sandbox) mutate(rep sbReply, c *sbCustomer, service string, body map[string]any) {
	ops, _ := body["operations"].([]any)
	if len(ops) == 0 {
		rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Request contains an invalid argument.", "fieldError",
			"REQUIRED", "The required field was not present: operations.")
		return
	}
	full := body["responseContentType"] == "MUTABLE_RESOURCE"
	var apply []func() map[string]any
	for i, raw := range ops {
		op, _ := raw.(map[string]any)
		var fn func() map[string]any
		var fail *mutateFailure
		switch service {
		case "campaigns":
			fn, fail = c.campaignOp(op, full)
		case "campaignBudgets":
			fn, fail = c.budgetOp(op, full)
		case "campaignCriteria":
			fn, fail = c.criterionOp(op)
		}
		if fail != nil {
			rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Request contains an invalid argument.", fail.kind, fail.code,
				fmt.Sprintf("%s (operation %d)", fail.msg, i))
			return
		}
		apply = append(apply, fn)
	}
	if body["validateOnly"] == true {
		rep.json(http.StatusOK, map[string]any{}) // "Only errors are returned, not results."
		return
	}
	results := make([]any, len(apply))
	for i, fn := range apply {
		results[i] = fn()
	}
	rep.json(http.StatusOK, map[string]any{"results": results})
}

// update returns the op's update object and mask fields (snake_case).
func update(op map[string]any) (map[string]any, []string) {
	u, _ := op["update"].(map[string]any)
	mask, _ := op["updateMask"].(string)
	var fields []string
	for _, f := range strings.Split(mask, ",") {
		if f = snake(strings.TrimSpace(f)); f != "" {
			fields = append(fields, f)
		}
	}
	return u, fields
}

var notFound = &mutateFailure{"mutateError", "RESOURCE_NOT_FOUND", "Requested resource was not found."}

func (c *sbCustomer) campaignOp(op map[string]any, full bool) (func() map[string]any, *mutateFailure) {
	u, mask := update(op)
	if u == nil {
		return nil, &mutateFailure{"requestError", "OPERATION_REQUIRED", "Mutate operation should have either create, update, or remove specified."}
	}
	if len(mask) == 0 {
		return nil, &mutateFailure{"fieldMaskError", "FIELD_MASK_MISSING", "The field mask must be provided for update operations."}
	}
	rn, _ := u["resourceName"].(string)
	i := slices.IndexFunc(c.Campaigns, func(k *sbCampaign) bool { return rn == fmt.Sprintf("customers/%s/campaigns/%d", c.ID, k.ID) })
	if i < 0 {
		return nil, notFound
	}
	k := c.Campaigns[i]
	status, name := k.Status, k.Name
	for _, f := range mask {
		switch f {
		case "status":
			status, _ = u["status"].(string)
			if status != "ENABLED" && status != "PAUSED" {
				return nil, &mutateFailure{"fieldError", "INVALID_VALUE", "The field's value is invalid: campaign.status must be ENABLED or PAUSED."}
			}
		case "name":
			if name, _ = u["name"].(string); name == "" {
				return nil, &mutateFailure{"fieldError", "REQUIRED", "The required field was not present: name."}
			}
		default:
			return nil, &mutateFailure{"fieldMaskError", "FIELD_NOT_FOUND", "The field mask contained an invalid field: " + f + "."}
		}
	}
	if k.Status == "REMOVED" {
		return nil, &mutateFailure{"operationAccessDeniedError", "OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE", "This operation is not allowed because the resource is removed."}
	}
	return func() map[string]any {
		k.Status, k.Name = status, name
		out := map[string]any{"resourceName": rn}
		if full {
			// "The mutated campaign with only mutable fields" (campaign_service.proto):
			// not id, which is OUTPUT_ONLY.
			out["campaign"] = map[string]any{"resourceName": rn, "name": k.Name, "status": k.Status}
		}
		return out
	}, nil
}

func (c *sbCustomer) budgetOp(op map[string]any, full bool) (func() map[string]any, *mutateFailure) {
	u, mask := update(op)
	if u == nil || !slices.Equal(mask, []string{"amount_micros"}) {
		return nil, &mutateFailure{"fieldMaskError", "FIELD_MASK_MISSING", "The sandbox updates campaign budgets with updateMask amountMicros only."}
	}
	rn, _ := u["resourceName"].(string)
	i := slices.IndexFunc(c.Budgets, func(b *sbBudget) bool { return rn == fmt.Sprintf("customers/%s/campaignBudgets/%d", c.ID, b.ID) })
	if i < 0 {
		return nil, notFound
	}
	amount, err := strconv.ParseInt(fmt.Sprint(u["amountMicros"]), 10, 64)
	if err != nil || amount <= 0 {
		return nil, &mutateFailure{"campaignBudgetError", "NEGATIVE_MONEY_AMOUNT", "A money amount was negative."}
	}
	if amount%10_000 != 0 {
		return nil, &mutateFailure{"campaignBudgetError", "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT", "The budget amount must be a multiple of the minimum currency unit."}
	}
	b := c.Budgets[i]
	return func() map[string]any {
		b.AmountMicros = amount
		out := map[string]any{"resourceName": rn}
		if full {
			out["campaignBudget"] = map[string]any{"resourceName": rn, "amountMicros": strconv.FormatInt(b.AmountMicros, 10)}
		}
		return out
	}, nil
}

func (c *sbCustomer) criterionOp(op map[string]any) (func() map[string]any, *mutateFailure) {
	cr, _ := op["create"].(map[string]any)
	if cr == nil {
		return nil, &mutateFailure{"mutateError", "MUTATE_NOT_ALLOWED", "Mutates are not allowed for the requested resource (the sandbox only creates campaign criteria)."}
	}
	rn, _ := cr["campaign"].(string)
	i := slices.IndexFunc(c.Campaigns, func(k *sbCampaign) bool { return rn == fmt.Sprintf("customers/%s/campaigns/%d", c.ID, k.ID) })
	if i < 0 {
		return nil, notFound
	}
	kw, _ := cr["keyword"].(map[string]any)
	text, _ := kw["text"].(string)
	match, _ := kw["matchType"].(string)
	switch {
	case cr["negative"] != true:
		return nil, &mutateFailure{"criterionError", "CANNOT_ADD_CRITERIA_TYPE", "Criteria type can not be targeted (the sandbox only adds negative keywords to campaigns)."}
	case text == "":
		return nil, &mutateFailure{"criterionError", "INVALID_KEYWORD_TEXT", "Invalid keyword criteria text."}
	case len(text) > 80:
		return nil, &mutateFailure{"criterionError", "KEYWORD_TEXT_TOO_LONG", "Keyword text should be less than 80 chars."}
	case !slices.Contains([]string{"EXACT", "PHRASE", "BROAD"}, match):
		return nil, &mutateFailure{"requestError", "INVALID_ENUM_VALUE", "Enum value is not permitted: keyword.match_type."}
	}
	k := c.Campaigns[i]
	if slices.ContainsFunc(c.Negatives, func(n *sbNegative) bool { return n.Campaign == k && n.Text == text && n.MatchType == match }) {
		return nil, &mutateFailure{"mutateError", "RESOURCE_ALREADY_EXISTS", "The resource being created already exists."}
	}
	return func() map[string]any {
		c.nextID++
		n := &sbNegative{ID: c.nextID, Campaign: k, Text: text, MatchType: match}
		c.Negatives = append(c.Negatives, n)
		return map[string]any{"resourceName": fmt.Sprintf("customers/%s/campaignCriteria/%d~%d", c.ID, k.ID, n.ID)}
	}, nil
}
