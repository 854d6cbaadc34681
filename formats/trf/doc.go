// Package trf reads and writes the FIDE Tournament Report File, TRF-16
// (FIDE Handbook C.04 Annex 2, "Format of Tournament Report File", by
// Christian Krause, approved 2015), and the pairing output of the pairing
// engines JaVaFo and bbpPairings. It is pure: no I/O beyond the readers and
// writers it is handed, no clock.
//
// # The TRF-16 player line
//
// A player is one line beginning "001", in fixed columns (1-based,
// inclusive; a column is a character, not a byte):
//
//	 1- 3  001                     49-52  FIDE rating
//	 5- 8  starting rank 1..9999   54-56  FIDE federation
//	10     sex (m/w)               58-68  FIDE number
//	11-13  title (GM, IM, WGM...)  70-79  birth date YYYY/MM/DD
//	15-47  name "Lastname, First"  81-84  points, e.g. " 4.5"
//	                               86-89  rank
//
// and, for each round r (from 1), ten columns from 92+10(r-1): the
// opponent's starting rank (four columns; "0000" or blank for none), a
// blank, the colour (w, b, or - for none), a blank, and the result code:
//
//	1 = 0   win, draw, loss of a game played
//	+ -     forfeit win, forfeit loss (the game was not played)
//	W D L   win, draw, loss of a game that lasted less than one move (not rated)
//	H F U Z half-point bye, full-point bye, pairing-allocated bye, zero-point bye
//	blank   equivalent to Z; in a file written before the round is
//	        played, a scheduled game whose result is not known yet
//
// Letter codes are read in either case. The columns between fields must be
// blank: a file whose fields are shifted is refused with the line and the
// column where a separator holds something else, so a mis-aligned export
// never slips through as wrong numbers.
//
// Lines of other kinds — tournament data (012 name, 022 city, 042 start
// date, 122 time control, 132 round dates...), team lines (013), comments
// (###) and the extension codes of JaVaFo's TRF(x) (XXR number of rounds,
// XXC configuration, XXS scoring, XXZ absent players) and bbpPairings'
// TRF(xb) (BBW, BBD points) — are kept as they were read and written back
// before the players.
//
// A file is read as UTF-8 (JaVaFo's recommendation); a file that is not
// valid UTF-8 is read as ISO 8859-1, as older Windows programs write it.
// Lines may end in CR LF or LF; Write ends them in CR LF (the TRF's
// "each line shall have a CR as last character").
//
// # Pairing output
//
// JaVaFo's Advanced User Manual ("How to read the output of JaVaFo") and
// bbpPairings' README (which follows it) define the pairing file: the
// first line holds the number of pairs P; each of the next P lines holds
// a pair of starting ranks, White first; a player who gets the
// pairing-allocated bye is paired with 0 ("12 0"). [ReadPairings] and
// [WritePairings] read and write it; [File.Paired] turns it into a round,
// boards numbered in the order of the lines, byes and half-point byes from
// the round's columns (and XXZ) becoming results without a board.
//
// # Rounds
//
// [File.Round] reads a round from the round columns of a file written
// after pairing (or after playing): each game once, checked from both
// players' lines (each names the other, with opposite colours and
// matching results), boards ordered as FIDE's Swiss rules publish them
// (C.04.1 F.1, C.04.2): by the higher score of the pair, then the sum of
// the scores, then the better starting rank. [File.SetRound] writes a
// round's results into the columns and the points, for the pairing
// program to read back before pairing the next round. [Codes] and
// [ResultOf] map the hall's results ("1-0", "+-", "0-0", "1/2-0", ...) to
// the codes of both players and back.
package trf
