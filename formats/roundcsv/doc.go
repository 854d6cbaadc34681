// Package roundcsv reads a round's pairings from the CSV that any pairing
// program can export, and writes a round's results as CSV. It is pure:
// no I/O beyond the readers and writers it is handed, no clock.
//
// # Reading
//
// The first row is a header naming the columns; the order is free and
// unknown columns are ignored. Header names are matched without regard to
// case, punctuation or spacing, in the spellings pairing programs and
// spreadsheets use:
//
//	board      Board, Bd, Bo., Table, Brett, Tisch
//	section    Section, Group, Sec, Gruppe
//	round      Round, Rd, Rnd, Runde
//	White      White, White Name, White Player, Name White, Weiß
//	Black      Black, Black Name, Black Player, Name Black, Schwarz
//	result     Result, Res, Score, Ergebnis
//	termination Termination
//	blind      Blind, Blind Play, Visually Disabled, Appendix D
//
// and a player's rating (Rating, Rtg, Elo, FIDE Rating), FIDE id (FIDE ID,
// FideID, FIDE No), pairing number (No., Nr, SNo, Start No, Starting
// Rank), title (Title, Tit) and federation (Fed, Federation, Country),
// each prefixed or followed by the side ("White Rtg", "Elo Black", "W
// FIDE ID"). Written without a side, as in Swiss-Manager's and
// Chess-Results' pairing lists ("Bo. | No. | White | Rtg | Pts. | Result
// | Pts. | Black | Rtg | No."), the first such column is White's and the
// second Black's.
//
// The delimiter is whatever the header uses: a comma, a semicolon (the
// usual Excel export in Europe) or a tab. A file that is not valid UTF-8
// is read as ISO 8859-1.
//
// The content is checked strictly: every row must have both players'
// names, a board number that is a number from 1 and unique in its
// section (without a board column, rows are numbered in their order), a
// rating that is a number, a FIDE id of digits, and a result the hall
// knows ("1-0", "½-½", "+-", "1/2-0", ... and Swiss-Manager's spaced "1 -
// 0", "+ - -"), or none. No player may play twice in a round or against
// himself. An error is an *Error naming the line and the column.
//
// A Blind column says how a board is played under the rules for play
// with visually disabled players (FIDE 2018 Appendix D), in the hall's
// short notation (rules.ParseBlindPlay): "W" White is visually disabled,
// "B+A" Black is and has an assistant, "W:de" his clock speaks German to
// him, "W,B=A" the sighted Black has an assistant, "-" the board is not
// played under the appendix; an empty cell leaves the round's setting.
// The notation is checked here, what the Laws allow by the hall.
//
// A row whose Black is "bye" (or "(bye)", "spielfrei", "Freilos", "PAB")
// is a round without a game for White: its result says which — "H", "½"
// or "1/2" a half-point bye, "F" a full-point bye, "Z", "0" or "-" a
// zero-point bye, and "U", "1", "+" or nothing the pairing-allocated bye.
//
// # Writing
//
// [Write] writes a round's results with a header row that Read reads
// back: Round, Section, Board, then each player's No., name, title,
// federation, rating and FIDE id, the Result as the hall records it
// ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0", "1/2-0", "0-1/2" or
// "*"), the Termination, and each side's points; byes as rows with Black
// "bye", no board, and the bye's letter as the result. When a game's draw
// odds make the result that counts differ from the board's (a drawn
// Armageddon: Result "1/2-1/2", points 0 and 1), a last column, Counts,
// says it ("0-1"), empty for the other rows; a round without such a game
// has no Counts column. Read reads it back into Game.Counts.
package roundcsv
