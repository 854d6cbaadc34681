package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LoadZone returns the hall's time zone named name (an IANA name such as
// "Europe/Yerevan", or "UTC"); "" is the machine's (MachineZone). The
// error says what is allowed.
func LoadZone(name string) (*time.Location, error) {
	if name == "" {
		return MachineZone(), nil
	}
	if name == "Local" {
		return nil, fmt.Errorf("time zone %q: want an IANA name such as Europe/Yerevan, Asia/Seoul or UTC, or none for the machine's", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("time zone %q is not one this machine knows: want an IANA name such as Europe/Yerevan, Europe/Moscow, Asia/Seoul or UTC (the tz database's, case as written), or none for the machine's", name)
	}
	return loc, nil
}

// MachineZone is the machine's time zone under its IANA name (from $TZ,
// or the link /etc/localtime is into the zone database), which the pages
// need to show the hall's time (Intl's timeZone); UTC if it has none.
func MachineZone() *time.Location {
	name := strings.TrimPrefix(os.Getenv("TZ"), ":")
	if name == "" {
		if target, err := filepath.EvalSymlinks("/etc/localtime"); err == nil {
			if _, after, ok := strings.Cut(target, "zoneinfo/"); ok {
				name = after
			}
		}
	}
	if name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	return time.UTC
}
