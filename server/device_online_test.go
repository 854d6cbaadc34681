package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A board created after its device connected takes the device's online
// state from the connection registry: the demo's fleet connects every
// clock first and imports its rounds afterwards, and every board showed
// "offline" although every clock was connected. The same for a
// board made by adding it by hand, and by importing a round whose hall
// plan gives the clock; the hub's watchers see what ListBoards sees.
func TestBoardCreatedAfterDeviceConnectedIsOnline(t *testing.T) {
	h, arb, ctx := openHall(t, 2)
	startClock(t, h, "CLK-001", nil, true)
	startClock(t, h, "CLK-002", nil, true)
	startClock(t, h, "CLK-SPARE", nil, true)

	imported := importRound(t, arb, ctx)
	var onTable []*pb.Board
	for _, b := range imported.GetBoards() {
		if b.GetTable() == 1 || b.GetTable() == 2 {
			onTable = append(onTable, b)
		}
	}
	if len(onTable) != 2 {
		t.Fatalf("imported boards at tables 1 and 2: %d, want 2", len(onTable))
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: imported.GetRound().GetTournamentId(), Number: 9})
	if err != nil {
		t.Fatal(err)
	}
	added, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, DeviceId: "CLK-SPARE",
		White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if !added.GetState().GetDeviceOnline() {
		t.Errorf("AddBoard with a connected device: device_online false, want true")
	}

	want := map[string]string{added.GetBoardId(): "CLK-SPARE"}
	for _, b := range onTable {
		want[b.GetBoardId()] = b.GetDeviceId()
	}
	halltest.Eventually(t, 2*time.Second, func() error {
		list, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{})
		if err != nil {
			return err
		}
		for _, b := range list.GetBoards() {
			dev, ok := want[b.GetBoardId()]
			if !ok {
				continue
			}
			if b.GetDeviceId() != dev || !b.GetState().GetDeviceOnline() {
				return fmt.Errorf("board %d (table %d): device %q online %v; want %s online", b.GetNumber(), b.GetTable(),
					b.GetDeviceId(), b.GetState().GetDeviceOnline(), dev)
			}
			if st, _, _ := h.Server.Hub().State(b.GetBoardId()); !st.GetDeviceOnline() {
				return fmt.Errorf("board %d: the hub's watchers see it offline", b.GetNumber())
			}
		}
		return nil
	})
}
