package loadgen

import (
	"os"
	"testing"
)

func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		name, stat string
		want       int64
		wantErr    bool
	}{
		{"plain", "1234 (gtmgate) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 100 0 0", 325, false},
		{"spaces and parens in the name", "77 (nginx: worker (x)) S 1 77 77 0 -1 0 0 0 0 0 3 4 0 0", 7, false},
		{"truncated", "1 (a) S 1 2 3", 0, true},
		{"no name", "1 a S 1 2 3 4 5 6 7 8 9 10 11 12 13", 0, true},
		{"not numbers", "1 (a) S 1 2 3 4 5 6 7 8 9 10 x y", 0, true},
	}
	for _, tc := range tests {
		got, err := parseStatCPU(tc.stat)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("%s: got %d, %v; want %d (error %v)", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestProcessCPUReadsThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	if _, err := processCPU([]int{os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	if _, err := processCPU([]int{-1}); err == nil {
		t.Fatal("no error for a pid that cannot exist")
	}
}

func TestParseStatusRSS(t *testing.T) {
	tests := []struct {
		name, status string
		want         int64
		wantErr      bool
	}{
		{"plain", "Name:\tgtmgate\nVmPeak:\t 900000 kB\nVmRSS:\t   57012 kB\nRssAnon:\t 22000 kB\n", 57012, false},
		{"no VmRSS (a kernel thread)", "Name:\tkthreadd\nState:\tS (sleeping)\n", 0, true},
		{"not a number", "VmRSS:\t  lots kB\n", 0, true},
		{"another unit", "VmRSS:\t 57 MB\n", 0, true},
	}
	for _, tc := range tests {
		got, err := parseStatusRSS(tc.status)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("%s: got %d, %v; want %d (error %v)", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if kb, err := processRSS([]int{os.Getpid()}); err != nil || kb <= 0 {
			t.Errorf("this process: %d KiB, %v", kb, err)
		}
	}
}
