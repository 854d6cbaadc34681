package main

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// arbiter is the chief arbiter's connection to a hall under test.
type arbiter struct {
	conn  *grpc.ClientConn
	arb   pb.ArbiterClient
	chief string
	round string
}

func dialArbiter(s *server) (*arbiter, error) {
	conn, err := grpc.NewClient(s.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &arbiter{conn: conn, arb: pb.NewArbiterClient(conn), chief: s.chief}, nil
}

func (a *arbiter) ctx(ctx context.Context) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+a.chief)
}

// parallel runs f(0..n-1) on workers goroutines and returns the first error.
func parallel(n, workers int, f func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// setupRound creates a tournament and a round of n boards, each with a
// device and its token, through the Arbiter service as a chief arbiter
// would (many calls at once: they share commits).
func (a *arbiter) setupRound(ctx context.Context, n int) (devs, tokens []string, err error) {
	c := a.ctx(ctx)
	tr, err := a.arb.CreateTournament(c, &pb.CreateTournamentRequest{Name: "bench", DefaultConfig: &pb.ClockConfig{TimeControl: echoTimeControl}})
	if err != nil {
		return nil, nil, err
	}
	r, err := a.arb.CreateRound(c, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		return nil, nil, err
	}
	a.round = r.GetRoundId()
	devs, tokens = make([]string, n), make([]string, n)
	err = parallel(n, 32, func(i int) error {
		id := fmt.Sprintf("BENCH-%05d", i+1)
		if _, err := a.arb.AddBoard(c, &pb.AddBoardRequest{RoundId: a.round, Number: int32(i + 1), DeviceId: id,
			White: &pb.Player{Name: fmt.Sprintf("White %d", i+1)}, Black: &pb.Player{Name: fmt.Sprintf("Black %d", i+1)}}); err != nil {
			return fmt.Errorf("board %d: %w", i+1, err)
		}
		tk, err := a.arb.IssueToken(c, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: id, DeviceId: id})
		if err != nil {
			return fmt.Errorf("token of %s: %w", id, err)
		}
		devs[i], tokens[i] = id, tk.GetToken()
		return nil
	})
	return devs, tokens, err
}

// watcherTokens issues n arbiter tokens for watchers.
func (a *arbiter) watcherTokens(ctx context.Context, n int) ([]string, error) {
	out := make([]string, n)
	err := parallel(n, 16, func(i int) error {
		tk, err := a.arb.IssueToken(a.ctx(ctx), &pb.IssueTokenRequest{Role: pb.Role_ROLE_ARBITER, Label: fmt.Sprintf("bench watcher %d", i+1)})
		if err != nil {
			return err
		}
		out[i] = tk.GetToken()
		return nil
	})
	return out, err
}

// startRound starts every clock of the round (the commands go through the
// clocks, which report the start as an event).
func (a *arbiter) startRound(ctx context.Context) error {
	_, err := a.arb.StartRound(a.ctx(ctx), &pb.StartRoundRequest{RoundId: a.round})
	return err
}

// echoDevices names the echo server's devices (it checks no token).
func echoDevices(n int) (devs, tokens []string) {
	for i := range n {
		devs, tokens = append(devs, fmt.Sprintf("ECHO-%05d", i+1)), append(tokens, "none")
	}
	return devs, tokens
}
