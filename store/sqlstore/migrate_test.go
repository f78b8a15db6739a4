package sqlstore

import (
	"testing"
	"testing/fstest"
)

func TestLoadMigrations(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   fstest.MapFS
		want    []int
		wantErr bool
	}{
		{"ordered by number", fstest.MapFS{
			"0010_later.sql": {Data: []byte("B")}, "0002_second.sql": {Data: []byte("A")}, "README": {},
		}, []int{2, 10}, false},
		{"empty", fstest.MapFS{}, nil, false},
		{"bad name", fstest.MapFS{"init.sql": {}}, nil, true},
		{"zero version", fstest.MapFS{"0000_x.sql": {}}, nil, true},
		{"duplicate", fstest.MapFS{"0001_a.sql": {}, "1_b.sql": {}}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := LoadMigrations(tc.files)
			if tc.wantErr {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.Version)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("versions = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("versions = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rows, cols int
		want       string
	}{
		{"one", 1, 1, "(?)"},
		{"row", 1, 3, "(?, ?, ?)"},
		{"rows", 2, 2, "(?, ?), (?, ?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := placeholders(tc.rows, tc.cols); got != tc.want {
				t.Errorf("placeholders = %q, want %q", got, tc.want)
			}
		})
	}
}
