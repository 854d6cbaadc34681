package rules

// profiles is the table of rulesets, newest first. Adding an edition (or a
// national ruleset) is one more entry here and its vectors in testdata/;
// the engine reads nothing else. The amounts and articles come from
// spec/rules.md and its seeds; where a seed is garbled, from the published
// FIDE text of the edition.
var profiles = []Profile{
	{
		Ruleset: FIDE2023, Edition: "FIDE 2023",
		Source:     "FIDE Laws of Chess effective 1 January 2023",
		BlitzMaxMs: 10 * minute, RapidMaxMs: 60*minute - 1, // A.1, B.1: blitz ≤ 10 min, rapid < 60 min
		IllegalMovePenalty: PerGame{Standard: 2 * minute, Rapid: minute, Blitz: 2 * minute, // 7.5.5, A.3; B.2: the Competition Rules
			RapidUnsupervised: minute, BlitzUnsupervised: minute}, // A.3 with B.3
		DrawClaimPenalty: PerGame{Standard: 2 * minute, Rapid: minute, Blitz: 2 * minute, // 9.5.3: as for an illegal move
			RapidUnsupervised: minute, BlitzUnsupervised: minute},
		IllegalMovesToLose:  2, // 7.5.5
		DefaultTimeMs:       0, // 6.7.1: zero unless the regulations say otherwise
		ResumptionDefaultMs: SameAsStart,
		SupervisionDecides:  true,                                                                                // A.4, A.5, B.2, B.3
		Unsupervised:        Unsupervised{SettingLockMoves: 10, ScheduleException: true, ArbiterCallsFlag: true}, // A.5.1.1; A.5.5: he calls a flag, the first decides
		Quickplay:           Quickplay{Announced: true, FiveSecondRequest: true, NoArbiter: true},
		UnorderedFlags:      FlagOrderGuidelines, // III.3.1
		DeclaredLost:        OpponentWins,        // 11.3.2.1: "the opponent shall win"
		Articles:            guidelinesEra("Appendix A.5.1.1", "Appendix A.5.2", "Appendix A.5.5"),
		Blind:               appendixD("FIDE 2023", ""), // the published text: Appendix D numbered as 2018's
	},
	{
		Ruleset: FIDE2018, Edition: "FIDE 2018",
		Source:     "FIDE Laws of Chess effective 1 January 2018 (seeds 000, 003)",
		BlitzMaxMs: 10 * minute, RapidMaxMs: 60*minute - 1, // A.1, B.1
		IllegalMovePenalty: PerGame{Standard: 2 * minute, Rapid: 2 * minute, Blitz: minute, // 7.5.5; B.2
			RapidUnsupervised: 2 * minute, BlitzUnsupervised: minute},
		DrawClaimPenalty: PerGame{Standard: 2 * minute, Rapid: 2 * minute, Blitz: minute, // 9.5.3; B.2
			RapidUnsupervised: 2 * minute, BlitzUnsupervised: minute},
		IllegalMovesToLose:  2,
		DefaultTimeMs:       0,
		ResumptionDefaultMs: SameAsStart,
		SupervisionDecides:  true,                                                                                // A.3, A.4, B.3, B.4
		Unsupervised:        Unsupervised{SettingLockMoves: 10, ScheduleException: true, ArbiterCallsFlag: true}, // A.4.1.1, A.4.5
		Quickplay:           Quickplay{Announced: true, FiveSecondRequest: true, NoArbiter: true},
		UnorderedFlags:      FlagOrderGuidelines,
		DeclaredLost:        OpponentWins, // 11.3.b
		Articles:            guidelinesEra("Appendix A.4.1.1", "Appendix A.4.2", "Appendix A.4.5"),
		Blind:               appendixD("FIDE 2018", ""), // seed 000, 제D조
	},
	{
		Ruleset: FIDE2009, Edition: "FIDE 2009",
		Source:     "FIDE Laws of Chess effective 1 July 2009 (seed 002)",
		BlitzMaxMs: 15*minute - 1, RapidMaxMs: 60*minute - 1, // A1, B1: blitz < 15 min, rapid < 60 min
		IllegalMovePenalty: PerGame{Standard: 2 * minute, Rapid: 2 * minute, Blitz: 2 * minute, // 7.4(b)
			RapidUnsupervised: 2 * minute, BlitzUnsupervised: 2 * minute},
		DrawClaimPenalty: PerGame{Standard: 3 * minute, Rapid: 3 * minute, Blitz: 3 * minute, // 9.5(b)
			RapidUnsupervised: 3 * minute, BlitzUnsupervised: 3 * minute},
		IllegalMovesToLose:  3,                                                                                                          // 7.4(b)
		DefaultTimeMs:       0,                                                                                                          // 6.6(a): zero minutes unless the rules of the competition say otherwise
		ResumptionDefaultMs: 60 * minute,                                                                                                // guideline 10: more than one hour late for the resumption
		SupervisionDecides:  true,                                                                                                       // A3, A4, B2, B3
		Unsupervised:        Unsupervised{SettingLockMoves: 3, OwnFlagMustStand: true, BothFlagsDraw: true, BlitzIllegalMoveWins: true}, // A4(a), A5, A6, B3(c)
		Quickplay:           Quickplay{BlitzWhenSupervised: true, NoArbiter: true, LastPeriodOnly: true},                                // 10.1, 10.2 always; B2; Appendix D
		UnorderedFlags:      FlagOrderByPeriod,                                                                                          // 6.11 (6.8 in seed 002's numbering)
		DeclaredLost:        OpponentWinsIfHeCan,                                                                                        // 12.2(b)
		Articles: map[Law]string{
			LawGameOver: "Art. 5", LawStart: "Art. 6.5", LawDefaultTime: "Art. 6.6", LawFlag: "Art. 6.8",
			LawDefectiveClock: "Art. 6.10(a)", LawClockSetting: "Art. 6.10(b)", LawStopClock: "Art. 6.12",
			LawIllegalMove: "Art. 7.4(a)", LawTimeTrouble: "Art. 8.4", LawArbiterPenalties: "Art. 13.4",
			LawDeclaredLost: "Art. 12.2(b)", LawAdjourn: "Guidelines for adjourned games",
			LawAdjournEarly: "Guidelines for adjourned games 1(b)", LawResumption: "Guidelines for adjourned games 9",
			LawResumptionDefault: "Guidelines for adjourned games 10",
			LawSettingLock:       "Appendix A4(a)", LawIllegalClaim: "Appendix A4(c)", LawBlitzIllegalClaim: "Appendix B3(c)",
			LawOwnFlag: "Appendix A5", LawBothFlags: "Appendix A6",
			LawQuickplayFinish: "Art. 10.1", LawQuickplayIncrement: "Art. 10.1", LawQuickplayBlitz: "Appendix B3(b)",
			LawQuickplayClaim: "Art. 10.2", LawQuickplayNoArbiter: "Appendix D", LawUnorderedFlags: "Art. 6.11",
			LawArbiterFlag: "Appendix A4(d)", LawSealedMove: "Guidelines for adjourned games 8(c)",
			LawSealedMoveEnds: "Guidelines for adjourned games 10", LawEnvelopeLost: "Guidelines for adjourned games 11",
		},
		Blind: appendixE("FIDE 2009", ""), // seed 002, from "시각 장애인 및 부분 시력이있는 사람들의 게임 규칙"
	},
	{
		Ruleset: FIDE2005, Edition: "FIDE 2005",
		Source:     "FIDE Laws of Chess of the early 2000s (seed 004: Art. 10-14, Appendices A-C)",
		BlitzMaxMs: 15*minute - 1, RapidMaxMs: 60 * minute, // C1: under 15 min; B1: 15 to 60 min
		IllegalMovePenalty: PerGame{Standard: 2 * minute, Rapid: 2 * minute, Blitz: 2 * minute, // 7.4(b)
			RapidUnsupervised: 2 * minute, BlitzUnsupervised: 2 * minute},
		DrawClaimPenalty: PerGame{Standard: 3 * minute, Rapid: 3 * minute, Blitz: 3 * minute, // 9.5(b)
			RapidUnsupervised: 3 * minute, BlitzUnsupervised: 3 * minute},
		IllegalMovesToLose:  3,
		DefaultTimeMs:       60 * minute,                                                                                                // 6.6: more than one hour after the start
		ResumptionDefaultMs: 60 * minute,                                                                                                // A10: more than one hour late for the resumption
		SupervisionDecides:  false,                                                                                                      // no notion of supervision: Appendices B and C govern every rapid and blitz game
		Unsupervised:        Unsupervised{SettingLockMoves: 3, OwnFlagMustStand: true, BothFlagsDraw: true, BlitzIllegalMoveWins: true}, // B4, B8, C3
		Quickplay:           Quickplay{LastPeriodOnly: true},                                                                            // 10.1, 10.2 always, never in blitz (C2); the claimant summons the arbiter
		UnorderedFlags:      FlagOrderContinue,                                                                                          // 6.11: the game shall continue
		DeclaredLost:        OpponentByArbiter,                                                                                          // 12.2(b): the opponent's result is determined by the arbiter
		Articles: map[Law]string{
			LawGameOver: "Art. 5", LawStart: "Art. 6.5", LawDefaultTime: "Art. 6.6", LawFlag: "Art. 6.8",
			LawDefectiveClock: "Art. 6.10", LawClockSetting: "Art. 6.13", LawStopClock: "Art. 6.12",
			LawIllegalMove: "Art. 7.4(a)", LawTimeTrouble: "Art. 8.4", LawArbiterPenalties: "Art. 13.4",
			LawDeclaredLost: "Art. 12.2(b)", LawAdjourn: "Appendix A", LawAdjournEarly: "Appendix A1(b)",
			LawResumption: "Appendix A9", LawResumptionDefault: "Appendix A10",
			LawSettingLock: "Appendix B4", LawIllegalClaim: "Appendix B6", LawBlitzIllegalClaim: "Appendix C3",
			LawOwnFlag: "Appendix B8", LawBothFlags: "Appendix B8",
			LawQuickplayFinish: "Art. 10.1", LawQuickplayIncrement: "Art. 10.1", LawQuickplayBlitz: "Appendix C2",
			LawQuickplayClaim: "Art. 10.2", LawUnorderedFlags: "Art. 6.11",
			LawArbiterFlag: "Appendix B7", LawSealedMove: "Appendix A8(c)", LawSealedMoveEnds: "Appendix A10",
			LawEnvelopeLost: "Appendix A11",
		},
		// Seed 004 holds no rules for visually disabled players: the 2009 ones apply.
		Blind: appendixE("FIDE 2009", "the 2005 text holds no rules for visually disabled players; the 2009 rules apply"),
	},
}

// guidelinesEra are the articles of the 2018 and 2023 texts, which number
// alike but for the rapid appendix: where it locks the clock setting and
// where it limits illegal-move claims and where the arbiter calls a flag
// (blitz follows the rapid appendix).
func guidelinesEra(settingLock, illegalClaim, arbiterFlag string) map[Law]string {
	return map[Law]string{
		LawGameOver: "Art. 5", LawStart: "Art. 6.6", LawDefaultTime: "Art. 6.7", LawFlag: "Art. 6.8",
		LawDefectiveClock: "Art. 6.10.1", LawClockSetting: "Art. 6.10.2", LawStopClock: "Art. 6.11",
		LawIllegalMove: "Art. 7.5.1", LawTimeTrouble: "Art. 8.4", LawArbiterPenalties: "Art. 12.9",
		LawDeclaredLost: "Art. 12.9", LawAdjourn: "Guidelines I", LawAdjournEarly: "Guidelines I.1.2",
		LawResumption: "Guidelines I.9", LawResumptionDefault: "Guidelines I.10",
		LawSettingLock: settingLock, LawIllegalClaim: illegalClaim, LawBlitzIllegalClaim: illegalClaim,
		LawQuickplayFinish: "Guidelines III.1", LawQuickplayAnnounced: "Guidelines III.2.1",
		LawQuickplayIncrement: "Guidelines III.2.2", LawQuickplayBlitz: "Guidelines III.2.2",
		LawQuickplayRequest: "Guidelines III.4", LawQuickplayClaim: "Guidelines III.5",
		LawQuickplayNoArbiter: "Guidelines III.6", LawUnorderedFlags: "Guidelines III.3.1",
		LawArbiterFlag: arbiterFlag, LawSealedMove: "Guidelines I.8.3", LawSealedMoveEnds: "Guidelines I.10",
		LawEnvelopeLost: "Guidelines I.12",
	}
}
