package main

import (
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"

	_ "time/tzdata" // the hall's zone, whatever zones this machine knows
)

// Times are printed in the hall's time zone, which the hall tells
// (AuditLogResponse.time_zone, SignInLink.time_zone), or in UTC with -utc
// (HALL_UTC=1): never in the zone of the machine hallctl runs on, and
// always saying which ("14:30:05 +04").

// zone returns the zone to print times in: UTC under -utc, else the
// hall's, named by told ("" asks the hall).
func (c *cli) zone(told string) *time.Location {
	if c.utc {
		return time.UTC
	}
	if told == "" && c.hallZone != nil {
		return c.hallZone
	}
	if told == "" {
		// A question that matches nothing: the answer tells the zone.
		if r, err := c.arb.AuditLog(c.ctx, &pb.AuditLogRequest{UntilUnixMs: 1, Limit: 1}); err == nil {
			told = r.GetTimeZone()
		}
	}
	loc, err := time.LoadLocation(told)
	switch told {
	case "UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu":
		loc = time.UTC // one name, and no need to say it twice
	}
	if err != nil || told == "" {
		loc = time.UTC // a hall that does not tell: say UTC, and say so
	}
	c.hallZone = loc
	return loc
}

// at writes the instant ms in layout and the zone loc, with the zone's
// abbreviation: "15:04:05 +04".
func at(ms int64, layout string, loc *time.Location) string {
	return time.UnixMilli(ms).In(loc).Format(layout + " MST")
}
