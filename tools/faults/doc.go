// Package faults is the hall's fault suite: a real hallserver process
// (built from cmd/hallserver) under a simulated fleet of clocks, and the
// faults a hall meets:
//
//   - kill -9 of the server, again and again, while clocks press: each
//     cycle restarts it on the same data directory; at the end every event
//     a clock saw acknowledged is in the store exactly once, and every
//     board's log replays to the state the watchers saw last;
//   - a second server on the same data directory, which must exit at once
//     naming the first;
//   - a full disk (a small tmpfs; needs root, skipped with a message
//     otherwise) under a fleet whose clocks gather a backlog: the hall
//     turns not ready saying how much space to free, loses nothing
//     acknowledged; with a little space freed it writes its log back and
//     says how much more it needs; once that is free it takes the
//     backlog without turning not ready again, and is ready after a
//     restart;
//   - a frozen disk (fsfreeze of an ext4 loop device; needs root,
//     skipped with a message otherwise) for 10 s under a fleet: within
//     the hall's -stall-after /readyz and gRPC health say the commits
//     stalled, logged once; after the thaw it is ready, nothing lost;
//   - a read-only store: the server refuses to start, saying so;
//   - a restore across a round change (hallserver restore of a backup
//     taken in round 1, after round 2 began) under a fleet: every event
//     a clock saw acknowledged is in the log of the board it was recorded
//     on (or on record as lost), no result changes, round 2 is rebuilt
//     from the clocks and plays to its end, and the arbiter's commands a
//     clock carried out after the backup are back with their commands;
//   - two illegal-move rulings after a backup, restored: taken back from
//     the clock's record of them, and a later flag is accepted.
//
// The suite prints its figures (cycles, events acknowledged, lost,
// duplicated). It runs only when HALL_FAULTS=1, so that go test ./... stays
// quick; .ci/run runs it:
//
//	HALL_FAULTS=1 go test -v -count=1 ./tools/faults
//
// HALL_FAULT_CYCLES sets the number of kill cycles (default 6).
package faults
