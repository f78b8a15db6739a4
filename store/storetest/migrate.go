package storetest

import (
	"strconv"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func testConcurrentOpen(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	fo, ok := open(t).(FreshOpener)
	if !ok {
		t.Skip("store does not implement storetest.FreshOpener")
	}
	openFresh := fo.FreshDatabase(t)
	const n = 4
	stores := make([]gtmgate.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = openFresh(t.Context()) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
			continue
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	if t.Failed() {
		return
	}
	s := stores[0]
	count, _ := strconv.Atoi(rawString(t, s, "SELECT COUNT(*) FROM schema_migrations"))
	last, _ := strconv.Atoi(rawString(t, s, "SELECT MAX(version) FROM schema_migrations"))
	if count == 0 || count != last {
		t.Errorf("schema_migrations holds %d rows up to version %d, want each migration once", count, last)
	}
	for i, st := range stores {
		if err := st.Ping(t.Context()); err != nil {
			t.Errorf("store %d: %v", i, err)
		}
	}
	putTenant(t, stores[1], "acme")
	if _, err := stores[n-1].GetTenant(t.Context(), "acme"); err != nil {
		t.Errorf("stores do not share the database: %v", err)
	}
}
