// Package refresh keeps tenants' provider access tokens fresh with the OAuth
// credentials seeded through POST /admin/seed-oauth.
//
// Everything durable is in the store (gtmgate.ProviderOAuthStore): the
// seeding record with its sealed client secret and refresh token, the current
// access token, whether the account needs re-authorisation, the last error and
// the refresh lease. A restarted or added replica therefore picks up where the
// others left off.
//
// Three paths renew a token, all through the same code:
//
//   - the tool path: toolrun.StoredTokens calls Refresher.Refresh when the
//     stored token has expired or the provider answered 401;
//   - the background worker: Refresher.Run renews every token that expires
//     within Options.LeadTime (default 5 minutes), every Options.Interval
//     (default 30 seconds), and every account that has no token yet;
//   - seeding: POST /admin/seed-oauth renews at once when the account has no
//     usable token.
//
// Concurrency: within a process, concurrent refreshes of one account share a
// single request (singleflight). Across replicas, the refresher that takes the
// store lease (ClaimRefresh, 30 seconds) calls the token endpoint; the others
// poll the store with backoff until the new token appears (tool path) or skip
// the account (worker). A caller whose stale token was already replaced gets
// the stored token without any request.
//
// The token endpoint request is RFC 6749 §6: POST grant_type=refresh_token,
// refresh_token, client_id and client_secret in the form body
// (client_secret_post), Accept: application/json, 10 second time-out, 1 MiB
// response cap. When the endpoint answers invalid_client to client_secret_post,
// the request is sent once more with HTTP Basic client authentication
// (client_secret_basic) and, if that works, this process keeps using Basic for
// that account. Public clients (empty client_secret) send only client_id.
//
// Failures: invalid_grant, invalid_client and unauthorized_client mark the
// account needs_reauth; tool calls on it then fail at once with
// REAUTH_REQUIRED naming the provider, account and tenant, without calling the
// endpoint, until the account is seeded again with a fresh refresh token. An
// unreachable endpoint, a time-out, a 5xx or another error is stored as
// last_error only and retried on the next call or sweep. Client secrets,
// refresh tokens and access tokens never appear in errors, logs or last_error.
//
// Admin routes (mounted with Refresher.Mount on the admin mux):
//
//	POST /admin/seed-oauth       body: the OAuth seeding record; 200 with the record minus secrets
//	GET  /admin/oauth-refresh    query tenant (optional): every seeding record minus secrets,
//	                             with needs_reauth, last_error, last_refresh_at, token_expires_at
package refresh
