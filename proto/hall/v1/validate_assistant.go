package hallv1

// Validation of the requests of play with visually disabled players: the
// board's setting, an announcement asked for, an assistant's sign-in link.

func (r *SetBlindPlayRequest) Validate() error {
	return first(id("board_id", r.GetBoardId(), true), r.GetBlindPlay().validate("blind_play"), text("reason", r.GetReason(), false))
}

func (r *AnnounceRequest) Validate() error {
	return first(id("board_id", r.GetBoardId(), true), playerSide("side", r.GetSide()), text("reason", r.GetReason(), false))
}

func (r *IssueAssistantLinkRequest) Validate() error {
	return first(id("board_id", r.GetBoardId(), true), playerSide("side", r.GetSide()), text("label", r.GetLabel(), false))
}

// playerSide checks a side that names a player: White or Black.
func playerSide(field string, s Side) error {
	if s != Side_SIDE_WHITE && s != Side_SIDE_BLACK {
		return bad(field, "is %s; name the player: SIDE_WHITE or SIDE_BLACK", s)
	}
	return nil
}
