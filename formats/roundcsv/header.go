package roundcsv

import (
	"strings"
	"unicode"
)

// role is what a column holds.
type role int

const (
	roleNone role = iota
	roleBoard
	roleSection
	roleRound
	roleResult
	roleTermination
	roleBlind
	roleCounts
	// Player attributes; a column of one has a side.
	roleName
	roleRating
	roleFideID
	roleNumber
	roleTitle
	roleFederation
	rolePoints
)

var roleNames = map[role]string{
	roleBoard: "board", roleSection: "section", roleRound: "round", roleResult: "result", roleTermination: "termination",
	roleBlind: "blind", roleCounts: "counts",
	roleName: "name", roleRating: "rating", roleFideID: "FIDE id", roleNumber: "number", roleTitle: "title",
	roleFederation: "federation", rolePoints: "points",
}

func (r role) player() bool { return r >= roleName }

// Header spellings, normalised (lower case, words separated by one blank).
var (
	sideWords  = map[string]int{"white": 0, "w": 0, "weiss": 0, "weiß": 0, "wh": 0, "black": 1, "b": 1, "schwarz": 1, "bl": 1}
	roundRoles = map[string]role{
		"board": roleBoard, "bd": roleBoard, "bo": roleBoard, "brd": roleBoard, "table": roleBoard, "tbl": roleBoard,
		"brett": roleBoard, "tisch": roleBoard, "board no": roleBoard, "board number": roleBoard, "bo no": roleBoard, "table no": roleBoard,
		"section": roleSection, "sec": roleSection, "group": roleSection, "grp": roleSection, "gruppe": roleSection,
		"round": roleRound, "rd": roleRound, "rnd": roleRound, "runde": roleRound,
		"result": roleResult, "res": roleResult, "score": roleResult, "ergebnis": roleResult, "resultat": roleResult,
		"termination": roleTermination, "term": roleTermination,
		"counts": roleCounts, "counts as": roleCounts, "counting result": roleCounts,
		"blind": roleBlind, "blind play": roleBlind, "visually disabled": roleBlind, "appendix d": roleBlind,
	}
	playerRoles = map[string]role{
		"": roleName, "name": roleName, "player": roleName, "spieler": roleName,
		"rating": roleRating, "rtg": roleRating, "elo": roleRating, "fide rating": roleRating, "rating fide": roleRating,
		"fide elo": roleRating, "elo fide": roleRating, "rat": roleRating,
		"fide id": roleFideID, "fideid": roleFideID, "fide": roleFideID, "id fide": roleFideID, "fide no": roleFideID,
		"fide number": roleFideID, "fide code": roleFideID, "id": roleFideID,
		"no": roleNumber, "nr": roleNumber, "number": roleNumber, "sno": roleNumber, "snr": roleNumber, "start no": roleNumber,
		"start number": roleNumber, "starting rank": roleNumber, "pairing no": roleNumber, "pairing number": roleNumber,
		"title": roleTitle, "tit": roleTitle, "titel": roleTitle,
		"fed": roleFederation, "federation": roleFederation, "country": roleFederation, "nation": roleFederation, "land": roleFederation,
		"pts": rolePoints, "points": rolePoints, "punkte": rolePoints,
	}
)

// normalise lower-cases a header and keeps its words of letters and digits;
// "#" reads as "no".
func normalise(h string) string {
	h = strings.ReplaceAll(strings.ToLower(h), "#", " no ")
	return strings.Join(strings.FieldsFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

// column is what the header says of one column.
type column struct {
	role role
	side int // 0 White, 1 Black, -1 none or not yet known
}

// classify reads a header cell.
func classify(h string) column {
	n := normalise(h)
	if r, ok := roundRoles[n]; ok {
		return column{role: r, side: -1}
	}
	if s, ok := sideWords[n]; ok {
		return column{role: roleName, side: s}
	}
	words := strings.Fields(n)
	if len(words) > 1 {
		for _, at := range []int{0, len(words) - 1} {
			s, ok := sideWords[words[at]]
			if !ok {
				continue
			}
			rest := append(append([]string(nil), words[:at]...), words[at+1:]...)
			if r, ok := playerRoles[strings.Join(rest, " ")]; ok {
				return column{role: r, side: s}
			}
		}
	}
	if r, ok := playerRoles[n]; ok && n != "" {
		return column{role: r, side: -1}
	}
	return column{role: roleNone, side: -1}
}
