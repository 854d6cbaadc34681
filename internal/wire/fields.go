package wire

import (
	"errors"

	"github.com/chesshall/hallclock/rules"
)

// A refusal that quotes a bad value names the field of the request that
// held it: "config.time_control: invalid time control "90x": ...". The
// rules say what they were reading (rules.InputError.What); the contract
// says where it came from.

// inputFields is the field of the contract, relative to its message (a
// ClockAction or a ClockConfig), of each thing the rules read.
var inputFields = map[string]string{
	"action kind":                    "kind",
	"side":                           "side",
	"result":                         "result",
	"termination":                    "termination",
	"FEN":                            "fen",
	"quickplay decision":             "decision",
	"ruleset":                        "ruleset",
	"time control":                   "time_control",
	"default time":                   "regulations.default_time_ms",
	"default time at the resumption": "regulations.resumption_default_ms",
	"illegal-move penalty time":      "regulations.illegal_move_penalty_ms",
	"draw-claim penalty time":        "regulations.draw_claim_penalty_ms",
	"announcement language":          "blind_play",
	"assistant":                      "blind_play",
}

// FieldOf returns the field, relative to its message (a ClockAction, a
// ClockConfig), that held the value err quotes: "result", "fen",
// "time_control", "regulations.default_time_ms"; "" if err is not an input
// error of the rules.
func FieldOf(err error) string {
	var ie *rules.InputError
	if !errors.As(err, &ie) {
		return ""
	}
	return inputFields[ie.What]
}

// InField returns err with the field that held its bad value in front of
// its message, within the request's message at prefix ("action",
// "event.action", "config"; "" for the request itself): "action.result:
// invalid result ...". An error that quotes no field's value is returned as
// it is. errors.Is and errors.As see err.
func InField(prefix string, err error) error {
	var named *fieldError
	f := FieldOf(err)
	if f == "" || errors.As(err, &named) {
		return err
	}
	if prefix != "" {
		f = prefix + "." + f
	}
	return &fieldError{field: f, err: err}
}

type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }
