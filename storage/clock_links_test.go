package storage

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A clock link is read without being spent, spent once (by the device it
// made), refused after its time; a tablet's kind survives what the
// device says of itself later.
func TestClockLinksSpentOnceAndTabletsKeepTheirKind(t *testing.T) {
	s := mustOpenAt(t, t.TempDir()+"/hall.db", Options{})
	ctx := context.Background()
	now := time.UnixMilli(1_750_000_000_000).UTC()
	mustWrite(t, s, func(tx *Tx) error {
		if err := tx.PutClockLink(ClockLink{Hash: "c1", Venue: "Hall B", Table: 7, MadeBy: "chief:c", MakerToken: "tok-c",
			Created: now, Expires: now.Add(15 * time.Minute)}); err != nil {
			return err
		}
		return tx.PutClockLink(ClockLink{Hash: "c2", BoardID: "b-1", MadeBy: "arbiter:a", MakerToken: "tok-a",
			Created: now, Expires: now.Add(15 * time.Minute)})
	})
	for range 2 {
		l, err := s.ClockLinkByHash(ctx, "c1")
		if err != nil || !l.Used.IsZero() || l.Venue != "Hall B" || l.Table != 7 || l.MakerToken != "tok-c" {
			t.Fatalf("ClockLinkByHash = %+v, %v; want table 7 of Hall B, unused (reading spends nothing)", l, err)
		}
	}
	mustWrite(t, s, func(tx *Tx) error {
		l, err := tx.SpendClockLink("c1", "tablet-1", now.Add(time.Minute))
		if err != nil || l.DeviceID != "tablet-1" || l.Table != 7 {
			t.Errorf("SpendClockLink = %+v, %v; want table 7's link, spent by tablet-1", l, err)
		}
		return tx.PutDeviceKind("tablet-1", DeviceTablet, now)
	})
	_ = s.Write(ctx, func(tx *Tx) error {
		if _, err := tx.SpendClockLink("c1", "tablet-2", now.Add(2*time.Minute)); !errors.Is(err, ErrLinkUsed) {
			t.Errorf("SpendClockLink a second time = %v, want ErrLinkUsed", err)
		}
		if _, err := tx.SpendClockLink("c2", "tablet-3", now.Add(15*time.Minute)); !errors.Is(err, ErrLinkExpired) {
			t.Errorf("SpendClockLink at its expiry = %v, want ErrLinkExpired", err)
		}
		if _, err := tx.SpendClockLink("nope", "tablet-4", now); !errors.Is(err, ErrNotFound) {
			t.Errorf("SpendClockLink(unknown) = %v, want ErrNotFound", err)
		}
		return nil
	})
	if l, _ := s.ClockLinkByHash(ctx, "c1"); l.DeviceID != "tablet-1" || l.Used.IsZero() {
		t.Errorf("c1 after its spending: %+v, want used by tablet-1", l)
	}
	mustWrite(t, s, func(tx *Tx) error {
		return tx.TouchDevice(DeviceRecord{ID: "tablet-1", Firmware: "hallclock-web", LastSeen: now.Add(time.Minute), BatteryPct: 80})
	})
	mustWrite(t, s, func(tx *Tx) error {
		return tx.TouchDevice(DeviceRecord{ID: "CLK-1", Firmware: "fw", LastSeen: now, BatteryPct: 50})
	})
	ds, err := s.Devices(ctx)
	if err != nil || len(ds) != 2 {
		t.Fatalf("Devices = %+v, %v; want CLK-1 and tablet-1", ds, err)
	}
	if ds[0].ID != "CLK-1" || ds[0].Kind != "" || ds[1].ID != "tablet-1" || ds[1].Kind != DeviceTablet || ds[1].Firmware != "hallclock-web" {
		t.Errorf("Devices = %+v; want CLK-1 a clock, tablet-1 a tablet with what it said", ds)
	}
}
