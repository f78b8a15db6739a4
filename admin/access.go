package admin

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// tenantFrom says where an admin route names the tenant it acts on, the
// same value its handler reads.
type tenantFrom int

const (
	// noTenant: the route is the operator's (gateway-wide, or across
	// tenants without a tenant filter its handler honours).
	noTenant tenantFrom = iota
	// pathTenant: the {tenant_id} path value.
	pathTenant
	// queryTenant: the "tenant" query parameter, which the handler filters
	// on; without it the route is the operator's.
	queryTenant
	// handlerTenant: the handler finds the tenant (an approval's) and asks
	// the actor itself; here only an actor with some role passes.
	handlerTenant
	// ownInTenant: the {tenant_id} path value, on a route that changes
	// only what is its caller's own there (a person connecting an account
	// of theirs): read access, any role in the tenant, is enough, and its
	// handler refuses a caller that is no person.
	ownInTenant
)

// rule is what a route needs of its caller.
type rule struct {
	need   gtmgate.Access
	tenant tenantFrom
}

// routeAccess declares every admin route's access. A route mounted without
// an entry stops start-up (see guard), so no route is left open by
// omission. Reads of one tenant are open to its people; the operator's
// routes, and everything that changes tenants' configuration, billing,
// gateway-wide settings or people's roles, to operators.
var routeAccess = map[string]rule{
	"GET /admin/tenants":                                         {gtmgate.AccessRead, handlerTenant}, // filtered to the actor's tenants
	"GET /admin/tenants/{tenant_id}":                             {gtmgate.AccessRead, pathTenant},
	"PUT /admin/tenants/{tenant_id}":                             {gtmgate.AccessOperator, pathTenant},
	"GET /admin/tenants/{tenant_id}/toolsets":                    {gtmgate.AccessRead, pathTenant},
	"GET /admin/tenants/{tenant_id}/toolsets/{name}":             {gtmgate.AccessRead, pathTenant},
	"PUT /admin/tenants/{tenant_id}/toolsets/{name}":             {gtmgate.AccessOwner, pathTenant},
	"DELETE /admin/tenants/{tenant_id}/toolsets/{name}":          {gtmgate.AccessOwner, pathTenant},
	"GET /admin/tenants/{tenant_id}/tools":                       {gtmgate.AccessRead, pathTenant},
	"POST /admin/tenants/{tenant_id}/tools/{tool}/call":          {gtmgate.AccessWrite, pathTenant},
	"POST /admin/auth":                                           {gtmgate.AccessOperator, noTenant},
	"GET /admin/auth/{tenant_id}":                                {gtmgate.AccessRead, pathTenant},
	"DELETE /admin/auth/{tenant_id}/{token_id}":                  {gtmgate.AccessOwner, pathTenant},
	"PUT /admin/tokens/{tenant_id}/{provider}/{account_id}":      {gtmgate.AccessWrite, pathTenant},
	"GET /admin/tenants/{tenant_id}/provider-tokens":             {gtmgate.AccessRead, pathTenant},
	"GET /admin/tenants/{tenant_id}/oauth-grants":                {gtmgate.AccessRead, pathTenant},
	"POST /admin/tenants/{tenant_id}/oauth-grants/revoke":        {gtmgate.AccessOwner, pathTenant},
	"GET /admin/usage/{tenant_id}":                               {gtmgate.AccessRead, pathTenant},
	"GET /admin/billing/{tenant_id}":                             {gtmgate.AccessRead, pathTenant},
	"PUT /admin/billing/{tenant_id}":                             {gtmgate.AccessOperator, pathTenant},
	"GET /admin/audit":                                           {gtmgate.AccessRead, queryTenant},
	"GET /admin/audit/stats":                                     {gtmgate.AccessRead, noTenant},
	"GET /admin/errors":                                          {gtmgate.AccessRead, queryTenant},
	"GET /admin/errors/{id}":                                     {gtmgate.AccessRead, noTenant},
	"POST /admin/replay":                                         {gtmgate.AccessOperator, noTenant},
	"GET /admin/approvals":                                       {gtmgate.AccessRead, handlerTenant}, // filtered to the actor's tenants
	"GET /admin/approvals/{approval_id}":                         {gtmgate.AccessRead, handlerTenant},
	"POST /admin/approvals/{approval_id}/approve":                {gtmgate.AccessApprove, handlerTenant},
	"POST /admin/approvals/{approval_id}/reject":                 {gtmgate.AccessApprove, handlerTenant},
	"GET /admin/feedback":                                        {gtmgate.AccessRead, noTenant},
	"POST /admin/feedback/{id}/resolve":                          {gtmgate.AccessOperator, noTenant},
	"GET /admin/admin-keys":                                      {gtmgate.AccessRead, noTenant},
	"POST /admin/admin-keys":                                     {gtmgate.AccessOperator, noTenant},
	"DELETE /admin/admin-keys/{key_id}":                          {gtmgate.AccessOperator, noTenant},
	"POST /admin/oauth/connect-codes":                            {gtmgate.AccessOperator, noTenant},
	"POST /admin/seed-oauth":                                     {gtmgate.AccessOperator, noTenant},
	"GET /admin/oauth-refresh":                                   {gtmgate.AccessRead, noTenant},
	"GET /admin/reauth":                                          {gtmgate.AccessRead, queryTenant},
	"GET /admin/oauth-apps":                                      {gtmgate.AccessRead, noTenant},
	"PUT /admin/oauth-apps/{provider}":                           {gtmgate.AccessOperator, noTenant},
	"GET /admin/oauth-apps/{provider}":                           {gtmgate.AccessRead, noTenant},
	"DELETE /admin/oauth-apps/{provider}":                        {gtmgate.AccessOperator, noTenant},
	"PUT /admin/tenants/{tenant_id}/oauth-apps/{provider}":       {gtmgate.AccessOwner, pathTenant},
	"GET /admin/tenants/{tenant_id}/oauth-apps/{provider}":       {gtmgate.AccessRead, pathTenant},
	"DELETE /admin/tenants/{tenant_id}/oauth-apps/{provider}":    {gtmgate.AccessOwner, pathTenant},
	"POST /admin/tenants/{tenant_id}/connect-links":              {gtmgate.AccessWrite, pathTenant},
	"POST /admin/tenants/{tenant_id}/connect-links/mine":         {gtmgate.AccessRead, ownInTenant},
	"GET /admin/connect-links":                                   {gtmgate.AccessRead, queryTenant},
	"GET /admin/jobs":                                            {gtmgate.AccessRead, noTenant},
	"GET /admin/jobs/{id}":                                       {gtmgate.AccessRead, noTenant},
	"POST /admin/jobs/{id}/retry":                                {gtmgate.AccessOperator, noTenant},
	"POST /admin/jobs/{id}/cancel":                               {gtmgate.AccessOperator, noTenant},
	"GET /admin/grader":                                          {gtmgate.AccessRead, noTenant},
	"GET /admin/grader/verdicts":                                 {gtmgate.AccessRead, noTenant},
	"GET /admin/grader/verdicts/{id}":                            {gtmgate.AccessRead, noTenant},
	"POST /admin/grader/verdicts/{id}/label":                     {gtmgate.AccessOperator, noTenant},
	"POST /admin/grader/traces/{id}/regrade":                     {gtmgate.AccessOperator, noTenant},
	"GET /admin/grader/agreement":                                {gtmgate.AccessRead, noTenant},
	"GET /admin/grader/paths":                                    {gtmgate.AccessRead, noTenant},
	"GET /admin/grader/deliveries":                               {gtmgate.AccessRead, noTenant},
	"GET /admin/incidents":                                       {gtmgate.AccessRead, noTenant},
	"POST /admin/incidents/{id}/resolve":                         {gtmgate.AccessOperator, noTenant},
	"GET /admin/agent-schedules":                                 {gtmgate.AccessRead, queryTenant},
	"GET /admin/agent-schedules/{job_id}":                        {gtmgate.AccessRead, queryTenant},
	"PUT /admin/agent-schedules/{job_id}":                        {gtmgate.AccessOperator, noTenant},
	"DELETE /admin/agent-schedules/{job_id}":                     {gtmgate.AccessWrite, queryTenant},
	"POST /admin/run-cron":                                       {gtmgate.AccessOperator, noTenant},
	"POST /admin/agent-schedules/{job_id}/run":                   {gtmgate.AccessWrite, queryTenant},
	"GET /admin/agent-runs":                                      {gtmgate.AccessRead, queryTenant},
	"GET /admin/agent-runs/{run_id}":                             {gtmgate.AccessRead, noTenant},
	"POST /admin/agent-runs/{run_id}/cancel":                     {gtmgate.AccessOperator, noTenant},
	"GET /admin/system-health":                                   {gtmgate.AccessRead, noTenant},
	"POST /admin/providers/check":                                {gtmgate.AccessOperator, noTenant},
	"GET /admin/daily-brief":                                     {gtmgate.AccessRead, noTenant},
	"POST /admin/daily-brief/trigger":                            {gtmgate.AccessOperator, noTenant},
	"GET /admin/tenants/{tenant_id}/mcp-servers":                 {gtmgate.AccessRead, pathTenant},
	"GET /admin/tenants/{tenant_id}/mcp-servers/{name}":          {gtmgate.AccessRead, pathTenant},
	"PUT /admin/tenants/{tenant_id}/mcp-servers/{name}":          {gtmgate.AccessWrite, pathTenant},
	"DELETE /admin/tenants/{tenant_id}/mcp-servers/{name}":       {gtmgate.AccessWrite, pathTenant},
	"POST /admin/tenants/{tenant_id}/mcp-servers/{name}/refresh": {gtmgate.AccessWrite, pathTenant},
	"POST /admin/tenants/{tenant_id}/mcp-servers/{name}/test":    {gtmgate.AccessWrite, pathTenant},
	"GET /admin/sso/idps":                                        {gtmgate.AccessRead, noTenant},
	"GET /admin/sso/idps/{name}":                                 {gtmgate.AccessRead, noTenant},
	"PUT /admin/sso/idps/{name}":                                 {gtmgate.AccessOperator, noTenant},
	"DELETE /admin/sso/idps/{name}":                              {gtmgate.AccessOperator, noTenant},
	"GET /admin/people":                                          {gtmgate.AccessRead, noTenant},
	"DELETE /admin/people/{person_id}":                           {gtmgate.AccessOperator, noTenant},
	"GET /admin/role-grants":                                     {gtmgate.AccessRead, noTenant},
	"POST /admin/role-grants":                                    {gtmgate.AccessOperator, noTenant},
	"DELETE /admin/role-grants/{grant_id}":                       {gtmgate.AccessOperator, noTenant},

	// Pinned tool definitions (#42): reading the changes waiting is reading
	// the server; accepting one is changing it.
	"GET /admin/tenants/{tenant_id}/mcp-servers/{name}/changes":         {gtmgate.AccessRead, pathTenant},
	"POST /admin/tenants/{tenant_id}/mcp-servers/{name}/changes/accept": {gtmgate.AccessWrite, pathTenant},
}

// AccessOf returns what the admin route pattern needs, for the docs and
// the console; ok is false for an undeclared route.
func AccessOf(pattern string) (need gtmgate.Access, tenantScoped bool, ok bool) {
	r, ok := routeAccess[pattern]
	return r.need, r.tenant != noTenant, ok
}

// guardedRouter registers routes with the access check of their entry in
// routeAccess.
type guardedRouter struct{ mux gtmgate.Router }

func (g guardedRouter) Handle(pattern string, h http.Handler) {
	g.mux.Handle(pattern, guard(pattern, h))
}

func (g guardedRouter) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	g.mux.Handle(pattern, guard(pattern, http.HandlerFunc(f)))
}

// guard wraps h with the check of pattern's declared access: the actor in
// the request's context must be allowed it on the tenant the route names.
func guard(pattern string, h http.Handler) http.Handler {
	ru, ok := routeAccess[pattern]
	if !ok {
		panic(fmt.Sprintf("admin: route %q declares no access in admin/access.go", pattern))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := gtmgate.ActorFromContext(r.Context())
		if a == nil {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EUnauthorized, "no signed-in actor"))
			return
		}
		var tenant string
		switch ru.tenant {
		case pathTenant, ownInTenant:
			tenant = r.PathValue("tenant_id")
		case queryTenant:
			tenant = r.URL.Query().Get("tenant")
		case handlerTenant:
			// A named key limited to no tenant may hold approve alone,
			// which no operator role is: its handler decides.
			if a.Operator() == "" && len(a.TenantIDs()) == 0 && a.Kind != gtmgate.ActorAPIKey {
				jsonapi.WriteError(w, r, refused(a, ru.need, ""))
				return
			}
			h.ServeHTTP(w, r)
			return
		}
		if !a.Allows(ru.need, tenant) {
			jsonapi.WriteError(w, r, refused(a, ru.need, tenant))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// refused is the FORBIDDEN answer to an actor whose roles do not allow need
// on tenant; it names what they hold, never another tenant's data.
func refused(a *gtmgate.Actor, need gtmgate.Access, tenant string) error {
	what := "the operator's routes"
	if tenant != "" {
		what = "tenant " + tenant
	}
	if a.Kind == gtmgate.ActorAPIKey {
		limit := "every tenant"
		if len(a.Tenants) > 0 {
			limit = "tenants " + strings.Join(a.Tenants, ", ")
		}
		return gtmgate.Errorf(gtmgate.EForbidden, "admin key %s has scopes %s on %s: %s access to %s is not among them",
			a.Name, strings.Join(a.Scopes, ", "), limit, need, what).
			WithHint("an operator admin creates keys with the scopes and tenants needed (gtmgate admin admin-keys create)")
	}
	var held []string
	if op := a.Operator(); op != "" {
		held = append(held, "operator "+op)
	}
	for _, g := range a.Roles {
		if g.TenantID != "" {
			held = append(held, g.Role+" of "+g.TenantID)
		}
	}
	roles := strings.Join(held, ", ")
	if roles == "" {
		roles = "no role"
	}
	return gtmgate.Errorf(gtmgate.EForbidden, "%s holds %s: %s access to %s is not among them", a.Name, roles, need, what).
		WithHint("an operator admin grants roles (gtmgate admin roles grant)")
}

// decideAllowed checks that the actor may see (need read) or decide (need
// approve) an approval of its tenant, category and tool.
func decideAllowed(a *gtmgate.Actor, need gtmgate.Access, ap *gtmgate.Approval) error {
	if need == gtmgate.AccessRead && a.SeesTenant(ap.TenantID) {
		return nil
	}
	if need == gtmgate.AccessApprove && a.Allows(gtmgate.AccessApprove, ap.TenantID) && a.CanDecide(ap.TenantID, ap.Category, ap.Tool) {
		return nil
	}
	if !a.SeesTenant(ap.TenantID) {
		// Not FORBIDDEN: whether another tenant's approval exists is not theirs to learn.
		return gtmgate.Errorf(gtmgate.ENotFound, "no approval %q", ap.ID)
	}
	return gtmgate.Errorf(gtmgate.EForbidden, "%s may not decide %s approvals of %s (category %s)", a.Name, ap.Tool, ap.TenantID, ap.Category).
		WithHint("an approver's grant may be limited to some categories or tools; an operator admin can widen it")
}
