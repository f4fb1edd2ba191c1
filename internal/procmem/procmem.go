// Package procmem reads a process's memory figures from Linux's /proc, for
// the resource tests and the soak script.
package procmem

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// KB returns a field of /proc/<pid>/status in kB: "VmRSS" (resident now)
// or "VmHWM" (the peak). It fails where /proc is missing or the field is
// not there.
func KB(pid int, field string) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}
