package postgres_test

import (
	"fmt"
	"testing"

	"github.com/gtmgate/gtmgate/store/storetest"
)

func BenchmarkFindTenantToken(b *testing.B) {
	storetest.BenchFindTenantToken(b, openTest(b))
}

func BenchmarkWriteCalls(b *testing.B) {
	for _, n := range []int{1, 64} {
		b.Run(fmt.Sprint("batch=", n), func(b *testing.B) { storetest.BenchWriteCalls(b, openTest(b), n) })
	}
}
