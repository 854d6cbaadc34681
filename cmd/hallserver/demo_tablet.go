package main

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The demo's table for a newcomer's phone: a tournament of its own (the
// fleet's rounds never wait for a person), one board at table 1 of the
// hall's plan, a rapid game; the demo prints a one-time clock link for the
// table, so that a phone that opens it plays that board through the hall.
// When its game is over, the next start of the demo sets up the next one
// (the plan keeps the phone at the table, so it gets the new board).
const (
	demoTabletTournament = "Play on your phone"
	demoTabletTable      = 1
	demoTabletTC         = "10m+5s"
)

// phoneBase is where a phone on this machine's network opens the web
// pages: web, with "localhost" (a server listening on every address)
// replaced by this machine's first address on a network, if it has one.
func phoneBase(web string) string {
	rest, ok := strings.CutPrefix(web, "http://localhost:")
	scheme := "http://"
	if !ok {
		if rest, ok = strings.CutPrefix(web, "https://localhost:"); !ok {
			return web
		}
		scheme = "https://"
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return web
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return scheme + net.JoinHostPort(n.IP.String(), rest)
		}
	}
	return web
}

// demoTabletLink sets up the phone's table if its game is over (or was
// never set up) and returns a clock link for the table, made with token
// (the fleet's: the demo's own doing, not a person's).
func (m *Main) demoTabletLink(ctx context.Context, grpcAddr net.Addr, web, token string) (*pb.EnrolLink, error) {
	creds, err := m.demoCredentials()
	if err != nil {
		return nil, err
	}
	opt := grpc.WithTransportCredentials(insecure.NewCredentials())
	if creds != nil {
		opt = grpc.WithTransportCredentials(creds)
	}
	conn, err := grpc.NewClient(hostPort(grpcAddr), opt)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	arb := pb.NewArbiterClient(conn)
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	ts, err := arb.ListTournaments(ctx, &pb.ListTournamentsRequest{})
	if err != nil {
		return nil, err
	}
	var last int32
	found := false
	for _, t := range ts.GetTournaments() {
		if t.GetName() == demoTabletTournament {
			found = true
			if rs := t.GetRounds(); len(rs) > 0 {
				last = slices.Max(rs)
			}
		}
	}
	if !found {
		if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: demoTabletTournament,
			DefaultConfig: &pb.ClockConfig{TimeControl: demoTabletTC}}); err != nil {
			return nil, err
		}
	}
	over := true
	if last > 0 {
		bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: demoTabletTournament, Number: last})
		if err != nil {
			return nil, err
		}
		for _, b := range bs.GetBoards() {
			over = over && b.GetState().GetStatus() == pb.BoardStatus_BOARD_STATUS_FINISHED
		}
	}
	if over {
		csv := fmt.Sprintf("Round,Board,White,Black\n%d,1,White,Black\n", last+1)
		if _, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: demoTabletTournament, Content: []byte(csv),
			FirstTable: demoTabletTable}); err != nil {
			return nil, err
		}
	}
	return arb.IssueClockLink(ctx, &pb.IssueClockLinkRequest{Table: demoTabletTable, BaseUrl: web})
}
