package gtmgate

import "net/url"

// ApprovalPagePath is a gate's page on the console, where an approver signs
// in, sees exactly what will run, and decides. Notices and held calls link
// to it; the link carries no authority of its own.
func ApprovalPagePath(id string) string { return "/console/approvals/" + url.PathEscape(id) }
