package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// demoBlindBoard checks the demo's board played under the rules for
// visually disabled players (FIDE 2018 Appendix D): board 1 of the blitz,
// White visually disabled with an assistant, whose presses for his
// player reach the clock through the hall as the assistant's (D.2.10.3).
func demoBlindBoard(httpAddr net.Addr, dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "demo", "tokens.json"))
	if err != nil {
		return err
	}
	var toks demoTokens
	if err := json.Unmarshal(b, &toks); err != nil {
		return err
	}
	get := func(method, body string, into proto.Message) error {
		req, _ := http.NewRequest("POST", "http://"+httpAddr.String()+"/api/arbiter/"+method, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+toks.Arbiter)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s: %d %s", method, resp.StatusCode, got)
		}
		return protojson.Unmarshal(got, into)
	}
	var list pb.ListBoardsResponse
	if err := get("ListBoards", "{}", &list); err != nil {
		return err
	}
	for _, bd := range list.GetBoards() {
		w := bd.GetConfig().GetBlindPlay().GetWhite()
		if bd.GetTournamentName() != "Blitz Night" || bd.GetNumber() != 1 {
			if w != nil {
				return fmt.Errorf("%s board %d is played under the appendix; want the blitz's board 1 only", bd.GetTournamentName(), bd.GetNumber())
			}
			continue
		}
		if !w.GetVisuallyDisabled() || !w.GetAssistant() {
			return fmt.Errorf("the blitz's board 1 says %v of White; want him visually disabled, with an assistant", w)
		}
		var log pb.AuditLogResponse
		if err := get("AuditLog", `{"boardId": "`+bd.GetBoardId()+`"}`, &log); err != nil {
			return err
		}
		for _, e := range log.GetEntries() {
			if e.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_PRESS && strings.HasPrefix(e.GetIssuedBy(), "assistant:") {
				return nil
			}
		}
		return fmt.Errorf("no press of the blitz's board 1 was made by White's assistant yet")
	}
	return fmt.Errorf("the demo has no blitz board 1")
}
