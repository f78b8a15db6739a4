package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// RecordVerdict stores a verdict and moves its tool path (see
// gtmgate.QualityStore). The path row is locked (the single writer on SQLite)
// for the whole transaction, so verdicts of one path are counted in the order
// they commit, whichever replica graded them.
func (s *Store) RecordVerdict(ctx context.Context, v *gtmgate.GraderVerdict, rules gtmgate.PathRules) (*gtmgate.GraderVerdict, error) {
	if v.ID == "" || v.TraceID == "" {
		return nil, s.fail("record verdict", gtmgate.Errorf(gtmgate.EValidation, "verdict and trace ids are required"))
	}
	if v.Time.IsZero() {
		v.Time = s.now()
	}
	out := *v
	err := s.inTx(ctx, "record verdict", func(tx *sql.Tx) error {
		stored, err := findVerdict(ctx, tx, s, v.ID)
		if err == nil {
			out = *stored
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if out.Status == gtmgate.VerdictGraded && out.Panel != nil {
			if err := s.movePath(ctx, tx, &out, rules); err != nil {
				return err
			}
			if err := s.keepKnownGood(ctx, tx, &out); err != nil {
				return err
			}
		}
		return s.insertVerdict(ctx, tx, &out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func findVerdict(ctx context.Context, tx *sql.Tx, s *Store, id string) (*gtmgate.GraderVerdict, error) {
	var body string
	if err := tx.QueryRowContext(ctx, s.q("SELECT body FROM grader_verdicts WHERE id = ?"), id).Scan(&body); err != nil {
		return nil, err
	}
	return decodeVerdict(body)
}

func decodeVerdict(body string) (*gtmgate.GraderVerdict, error) {
	var v gtmgate.GraderVerdict
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		return nil, fmt.Errorf("decode verdict: %w", err)
	}
	return &v, nil
}

func (s *Store) insertVerdict(ctx context.Context, tx *sql.Tx, v *gtmgate.GraderVerdict) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode verdict: %w", err)
	}
	var quality any
	issues, defect := ",", false
	if v.Panel != nil {
		quality, defect = v.Panel.Quality, v.Panel.RoutingDefect
		for _, i := range v.Panel.Issues {
			issues += string(i) + ","
		}
	}
	key := ""
	if v.Trace != nil {
		key = v.Trace.Key
	}
	_, err = tx.ExecContext(ctx, s.q(`INSERT INTO grader_verdicts (id, trace_id, time, tenant_id, tool, action, status,
		quality, routing_defect, issues, labelled, body, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		v.ID, v.TraceID, s.t(v.Time), v.TenantID, v.Tool, v.Action, v.Status, quality, defect, issues, v.Label != nil, string(body), key)
	return err
}

// movePath counts v into its tool path's streaks and opens or closes the
// path's incident; v records which.
func (s *Store) movePath(ctx context.Context, tx *sql.Tx, v *gtmgate.GraderVerdict, rules gtmgate.PathRules) error {
	now := s.now()
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO grader_paths (tenant_id, tool, action, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (tenant_id, tool, action) DO NOTHING`), v.TenantID, v.Tool, v.Action, s.t(now)); err != nil {
		return err
	}
	p := gtmgate.PathState{TenantID: v.TenantID, Tool: v.Tool, Action: v.Action}
	var streakRaw string
	err := tx.QueryRowContext(ctx, s.q(`SELECT consecutive_bad, consecutive_good, degraded, incident_id, streak
		FROM grader_paths WHERE tenant_id = ? AND tool = ? AND action = ?`+s.d.ForUpdate()), v.TenantID, v.Tool, v.Action).
		Scan(&p.ConsecutiveBad, &p.ConsecutiveGood, &p.Degraded, &p.IncidentID, &streakRaw)
	if err != nil {
		return err
	}
	var streak []string
	json.Unmarshal([]byte(streakRaw), &streak)
	if v.Panel.Quality <= rules.BadQuality {
		p.ConsecutiveBad++
		p.ConsecutiveGood = 0
		p.Degraded = true
		streak = append(streak, v.ID)
		if len(streak) > rules.OpenAfter {
			streak = streak[len(streak)-rules.OpenAfter:]
		}
		if p.ConsecutiveBad >= rules.OpenAfter && p.IncidentID == "" {
			inc, err := s.openIncident(ctx, tx, v, streak, rules)
			if err != nil {
				return err
			}
			p.IncidentID = inc
			v.IncidentID, v.IncidentEvent = inc, "opened"
		}
	} else {
		p.ConsecutiveGood++
		p.ConsecutiveBad = 0
		streak = nil
		if p.ConsecutiveGood >= rules.CloseAfter {
			p.Degraded = false
			if p.IncidentID != "" {
				if err := s.closeIncident(ctx, tx, p.IncidentID, "grader", s.t(now)); err != nil {
					return err
				}
				v.IncidentID, v.IncidentEvent = p.IncidentID, "closed"
				p.IncidentID = ""
			}
		}
	}
	enc, _ := json.Marshal(streak)
	if streak == nil {
		enc = []byte("[]")
	}
	_, err = tx.ExecContext(ctx, s.q(`UPDATE grader_paths SET consecutive_bad = ?, consecutive_good = ?, degraded = ?,
		incident_id = ?, streak = ?, updated_at = ? WHERE tenant_id = ? AND tool = ? AND action = ?`),
		p.ConsecutiveBad, p.ConsecutiveGood, p.Degraded, p.IncidentID, string(enc), s.t(now), v.TenantID, v.Tool, v.Action)
	return err
}

// incidentDetail is the error_detail of an incident entry.
type incidentDetail struct {
	Verdicts   []string `json:"verdicts"`
	TraceID    string   `json:"trace_id"`
	BadQuality int      `json:"bad_quality"`
}

func (s *Store) openIncident(ctx context.Context, tx *sql.Tx, v *gtmgate.GraderVerdict, streak []string, rules gtmgate.PathRules) (string, error) {
	detail, _ := json.Marshal(incidentDetail{Verdicts: streak, TraceID: v.TraceID, BadQuality: rules.BadQuality})
	mutating := v.Trace != nil && v.Trace.Mutating
	id := "inc_" + strings.TrimPrefix(v.ID, "vrd_")
	msg := fmt.Sprintf("%d consecutive panel verdicts of quality %d or lower on %s.%s", len(streak), rules.BadQuality, v.Tool, v.Action)
	_, err := tx.ExecContext(ctx, s.q(ledgerInsert+placeholders(1, ledgerColCount)),
		id, gtmgate.LedgerIncident, s.t(v.Time), v.TenantID, "grader", v.Tool, v.Action, mutating, nil,
		"QUALITY_DEGRADED", msg, string(detail), "", "[]", gtmgate.IncidentOpen, nil, "", "")
	if err != nil {
		return "", err
	}
	return id, nil
}

func (s *Store) closeIncident(ctx context.Context, tx *sql.Tx, id, by string, at any) error {
	_, err := tx.ExecContext(ctx, s.q(`UPDATE error_ledger SET status = ?, resolved_at = ?, resolved_by = ?
		WHERE id = ? AND kind = ? AND status = ?`), gtmgate.IncidentResolved, at, by, id, gtmgate.LedgerIncident, gtmgate.IncidentOpen)
	return err
}

// keepKnownGood makes a well-graded, successful result its input class's known-good one.
func (s *Store) keepKnownGood(ctx context.Context, tx *sql.Tx, v *gtmgate.GraderVerdict) error {
	t := v.Trace
	if t == nil || t.Error != nil || t.InputShape == "" || len(t.Result) == 0 || v.Panel.Quality < 3 {
		return nil
	}
	for _, i := range v.Panel.Issues {
		if i == gtmgate.IssueRegression {
			return nil
		}
	}
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO grader_known_good (tenant_id, shape, trace_id, time, result) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, shape) DO UPDATE SET trace_id = excluded.trace_id, time = excluded.time, result = excluded.result`),
		v.TenantID, t.InputShape, t.ID, s.t(t.Time), string(t.Result))
	return err
}

// GetVerdict returns the verdict with id, or ErrNotFound.
func (s *Store) GetVerdict(ctx context.Context, id string) (*gtmgate.GraderVerdict, error) {
	return s.oneVerdict(ctx, "get verdict", "SELECT body FROM grader_verdicts WHERE id = ?", id)
}

// LatestVerdict returns a trace's newest verdict, or ErrNotFound.
func (s *Store) LatestVerdict(ctx context.Context, traceID string) (*gtmgate.GraderVerdict, error) {
	return s.oneVerdict(ctx, "latest verdict", "SELECT body FROM grader_verdicts WHERE trace_id = ? ORDER BY time DESC, id DESC LIMIT 1", traceID)
}

func (s *Store) oneVerdict(ctx context.Context, op, query, arg string) (*gtmgate.GraderVerdict, error) {
	var body string
	if err := s.read.QueryRowContext(ctx, s.q(query), arg).Scan(&body); err != nil {
		return nil, s.fail(op, err)
	}
	v, err := decodeVerdict(body)
	if err != nil {
		return nil, s.fail(op, err)
	}
	return v, nil
}

// ListVerdicts returns the verdicts matching f, newest first; f.Limit
// defaults to 100 and is at most 5000 (agreement statistics read many).
func (s *Store) ListVerdicts(ctx context.Context, f gtmgate.VerdictFilter) ([]*gtmgate.GraderVerdict, error) {
	var where []string
	var args []any
	add := func(cond string, arg any) { where, args = append(where, cond), append(args, arg) }
	if f.TenantID != "" {
		add("tenant_id = ?", f.TenantID)
	}
	if f.Tool != "" {
		add("tool = ?", f.Tool)
	}
	if f.Key != "" {
		add("key_id = ?", f.Key)
	}
	if f.MaxQuality > 0 {
		add("quality <= ?", f.MaxQuality)
	}
	if f.Issue != "" {
		add("issues LIKE ?", "%,"+string(f.Issue)+",%")
	}
	if f.RoutingDefect != nil {
		add("routing_defect = ?", *f.RoutingDefect)
	}
	if f.Labelled != nil {
		add("labelled = ?", *f.Labelled)
	}
	if !f.Since.IsZero() {
		add("time >= ?", s.t(f.Since))
	}
	q := "SELECT body FROM grader_verdicts"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY time DESC, id DESC LIMIT ?"
	args = append(args, limit(f.Limit, defaultLimit, 5000))
	rows, err := s.read.QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, s.fail("list verdicts", err)
	}
	defer rows.Close()
	vs := []*gtmgate.GraderVerdict{}
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, s.fail("list verdicts", err)
		}
		v, err := decodeVerdict(body)
		if err != nil {
			return nil, s.fail("list verdicts", err)
		}
		vs = append(vs, v)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list verdicts", err)
	}
	return vs, nil
}

// LabelVerdict stores an operator's label on a verdict.
func (s *Store) LabelVerdict(ctx context.Context, id string, l gtmgate.VerdictLabel) (*gtmgate.GraderVerdict, error) {
	if l.At.IsZero() {
		l.At = s.now()
	}
	var out *gtmgate.GraderVerdict
	err := s.inTx(ctx, "label verdict", func(tx *sql.Tx) error {
		var body string
		if err := tx.QueryRowContext(ctx, s.q("SELECT body FROM grader_verdicts WHERE id = ?"+s.d.ForUpdate()), id).Scan(&body); err != nil {
			return err
		}
		v, err := decodeVerdict(body)
		if err != nil {
			return err
		}
		v.Label = &l
		enc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		out = v
		_, err = tx.ExecContext(ctx, s.q("UPDATE grader_verdicts SET labelled = ?, body = ? WHERE id = ?"), true, string(enc), id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// KnownGood returns an input class's known-good result, or ErrNotFound.
func (s *Store) KnownGood(ctx context.Context, tenantID, shape string) (*gtmgate.KnownGood, error) {
	var k gtmgate.KnownGood
	err := s.read.QueryRowContext(ctx, s.q("SELECT trace_id, time, result FROM grader_known_good WHERE tenant_id = ? AND shape = ?"),
		tenantID, shape).Scan(&k.TraceID, timeCol{&k.Time}, jsonCol{&k.Result})
	if err != nil {
		return nil, s.fail("known good", err)
	}
	return &k, nil
}

// ListPathStates returns tool path states, ordered by tenant and path.
func (s *Store) ListPathStates(ctx context.Context, tenantID string, degradedOnly bool) ([]*gtmgate.PathState, error) {
	q := `SELECT tenant_id, tool, action, consecutive_bad, consecutive_good, degraded, incident_id, updated_at FROM grader_paths WHERE 1 = 1`
	var args []any
	if tenantID != "" {
		q, args = q+" AND tenant_id = ?", append(args, tenantID)
	}
	if degradedOnly {
		q, args = q+" AND degraded = ?", append(args, true)
	}
	rows, err := s.read.QueryContext(ctx, s.q(q+" ORDER BY tenant_id, tool, action LIMIT 10000"), args...)
	if err != nil {
		return nil, s.fail("list path states", err)
	}
	defer rows.Close()
	ps := []*gtmgate.PathState{}
	for rows.Next() {
		var p gtmgate.PathState
		if err := rows.Scan(&p.TenantID, &p.Tool, &p.Action, &p.ConsecutiveBad, &p.ConsecutiveGood, &p.Degraded, &p.IncidentID,
			timeCol{&p.UpdatedAt}); err != nil {
			return nil, s.fail("list path states", err)
		}
		ps = append(ps, &p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list path states", err)
	}
	return ps, nil
}

// OpenIncident returns the open incident on any action of a tenant's tool.
func (s *Store) OpenIncident(ctx context.Context, tenantID, tool string) (*gtmgate.LedgerEntry, error) {
	e, err := scanLedger(s.read.QueryRowContext(ctx, s.q("SELECT "+ledgerCols+
		" FROM error_ledger WHERE tenant_id = ? AND tool = ? AND kind = ? AND status = ? ORDER BY time LIMIT 1"),
		tenantID, tool, gtmgate.LedgerIncident, gtmgate.IncidentOpen))
	if err != nil {
		return nil, s.fail("open incident", err)
	}
	return e, nil
}

// ResolveIncident closes an open incident as an operator and resets its
// path's bad streak.
func (s *Store) ResolveIncident(ctx context.Context, id, by string, at time.Time) (*gtmgate.LedgerEntry, error) {
	if at.IsZero() {
		at = s.now()
	}
	var out *gtmgate.LedgerEntry
	err := s.inTx(ctx, "resolve incident", func(tx *sql.Tx) error {
		e, err := scanLedger(tx.QueryRowContext(ctx, s.q("SELECT "+ledgerCols+" FROM error_ledger WHERE id = ? AND kind = ?"+s.d.ForUpdate()),
			id, gtmgate.LedgerIncident))
		if err != nil {
			return err
		}
		if e.Status != gtmgate.IncidentOpen {
			return fmt.Errorf("%w: incident %s is %s", gtmgate.ErrConflict, id, e.Status)
		}
		if err := s.closeIncident(ctx, tx, id, by, s.t(at)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE grader_paths SET consecutive_bad = 0, incident_id = '', streak = '[]', updated_at = ?
			WHERE tenant_id = ? AND tool = ? AND action = ? AND incident_id = ?`), s.t(at), e.TenantID, e.Tool, e.Action, id); err != nil {
			return err
		}
		resolved := at.UTC().Truncate(time.Microsecond)
		e.Status, e.ResolvedAt, e.ResolvedBy = gtmgate.IncidentResolved, &resolved, by
		out = e
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AddDelivery records one webhook delivery attempt.
func (s *Store) AddDelivery(ctx context.Context, d *gtmgate.WebhookDelivery) error {
	if d.Time.IsZero() {
		d.Time = s.now()
	}
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO webhook_deliveries (webhook_id, event, tenant_id, attempt, time, status, ok, error, duration_ms,
		endpoint, receiver) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), d.WebhookID, d.Event, d.TenantID, d.Attempt, s.t(d.Time), d.Status, d.OK, d.Error,
		d.DurationMS, d.Endpoint, d.Receiver)
	if err != nil {
		return s.fail("add delivery", err)
	}
	return nil
}

// ListDeliveries returns delivery attempts, newest first.
func (s *Store) ListDeliveries(ctx context.Context, f gtmgate.DeliveryFilter) ([]*gtmgate.WebhookDelivery, error) {
	var where []string
	var args []any
	add := func(cond string, arg any) { where, args = append(where, cond), append(args, arg) }
	if f.WebhookID != "" {
		add("webhook_id = ?", f.WebhookID)
	}
	if f.Event != "" {
		add("event = ?", f.Event)
	}
	if !f.Since.IsZero() {
		add("time >= ?", s.t(f.Since))
	}
	q := "SELECT id, webhook_id, event, tenant_id, attempt, time, status, ok, error, duration_ms, endpoint, receiver FROM webhook_deliveries"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := s.read.QueryContext(ctx, s.q(q+" ORDER BY id DESC LIMIT ?"), append(args, limit(f.Limit, defaultLimit, maxLimit))...)
	if err != nil {
		return nil, s.fail("list deliveries", err)
	}
	defer rows.Close()
	ds := []*gtmgate.WebhookDelivery{}
	for rows.Next() {
		var d gtmgate.WebhookDelivery
		if err := rows.Scan(&d.ID, &d.WebhookID, &d.Event, &d.TenantID, &d.Attempt, timeCol{&d.Time}, &d.Status, &d.OK, &d.Error,
			&d.DurationMS, &d.Endpoint, &d.Receiver); err != nil {
			return nil, s.fail("list deliveries", err)
		}
		ds = append(ds, &d)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list deliveries", err)
	}
	return ds, nil
}
