package loadgen

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// clockTicks is USER_HZ, the unit of /proc/PID/stat's CPU times: 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// processCPU returns the CPU time (user plus system) that the processes
// have used so far, in ticks, from /proc/PID/stat. Server CPU per request
// is steadier than throughput on a machine whose background load drifts.
func processCPU(pids []int) (int64, error) { return sumProc(pids, "stat", "cpu", parseStatCPU) }

// processRSS returns the processes' resident set size in KiB (VmRSS from
// /proc/PID/status), read as the measured phase ends: memory under load.
func processRSS(pids []int) (int64, error) { return sumProc(pids, "status", "rss", parseStatusRSS) }

// sumProc adds up one figure parsed from /proc/PID/FILE of each process.
func sumProc(pids []int, file, what string, parse func(string) (int64, error)) (int64, error) {
	var total int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
		if err != nil {
			return 0, fmt.Errorf("loadgen: server %s: %w", what, err)
		}
		n, err := parse(string(b))
		if err != nil {
			return 0, fmt.Errorf("loadgen: server %s of %d: %w", what, pid, err)
		}
		total += n
	}
	return total, nil
}

// parseStatCPU reads utime and stime (fields 14 and 15) of a stat line. The
// command name (field 2) is in parentheses and may hold spaces, so fields
// are counted from the last ')'.
func parseStatCPU(stat string) (int64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed stat line")
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, fmt.Errorf("malformed stat line")
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("malformed stat line")
	}
	return utime + stime, nil
}

// parseStatusRSS reads the "VmRSS:   1234 kB" line of /proc/PID/status.
func parseStatusRSS(status string) (int64, error) {
	for line := range strings.Lines(status) {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			break
		}
		return strconv.ParseInt(f[0], 10, 64)
	}
	return 0, fmt.Errorf("no VmRSS line")
}
