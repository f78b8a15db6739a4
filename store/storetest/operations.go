package storetest

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

func testReplicasAndHealth(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	beat := func(id string, at time.Time) {
		must(t, s.Heartbeat(ctx, gtmgate.Replica{ID: id, Hostname: "h", Version: "v1", StartedAt: t0, SeenAt: at}))
	}
	beat("a", t0)
	beat("b", t0.Add(time.Minute))
	beat("a", t0.Add(2*time.Minute)) // a beats again
	live, err := s.ListReplicas(ctx, t0.Add(30*time.Second))
	must(t, err)
	if len(live) != 2 || live[0].ID != "a" || !live[0].SeenAt.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("live replicas: %+v", live)
	}
	must(t, s.ForgetReplica(ctx, "b"))
	if live, _ = s.ListReplicas(ctx, t0); len(live) != 1 {
		t.Errorf("after forget: %+v", live)
	}

	latest, err := s.ListHealthSnapshots(ctx, time.Time{}, 1)
	must(t, err)
	if len(latest) != 0 {
		t.Errorf("no snapshots yet: %+v", latest)
	}
	for i := range 3 {
		must(t, s.AddHealthSnapshot(ctx, &gtmgate.HealthSnapshot{ID: string(rune('x' + i)), TakenAt: t0.Add(time.Duration(i) * time.Minute),
			Status: "ok", Body: []byte(`{"n":` + string(rune('0'+i)) + `}`)}))
	}
	latest, err = s.ListHealthSnapshots(ctx, time.Time{}, 1)
	must(t, err)
	if len(latest) != 1 || latest[0].ID != "z" || string(latest[0].Body) != `{"n":2}` {
		t.Errorf("latest: %+v", latest)
	}
	series, err := s.ListHealthSnapshots(ctx, t0.Add(time.Minute), 10)
	must(t, err)
	if len(series) != 2 || series[0].ID != "y" {
		t.Errorf("series: %+v", series)
	}
	if n, err := s.PruneRecords(ctx, gtmgate.RecordHealthSnapshots, t0.Add(time.Minute), 100); err != nil || n != 1 {
		t.Errorf("prune: %d, %v; want 1 deleted", n, err)
	}
}
