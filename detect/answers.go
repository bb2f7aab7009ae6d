package detect

import "github.com/runawayhq/runaway/schema"

// Real tools rarely answer twice with the same bytes: a test log carries
// its timing, a page its ad, a file view its line numbers. Two results are
// the same answer when their fingerprints are equal (ingest normalises
// text output's volatile tokens first) or, for text of at least
// schema.MinSimilarityWords words, when their SimHashes differ in at most
// Policy.ResultSimilarity's bits. Likewise two calls are the same call when
// their normalised args are equal (near-duplicates). Progress needs new
// information, not new bytes.

// sameAnswer reports whether steps i and j got the same answer: the same
// result (sameReply), or, for a turn of conversation said again, any reply.
func (v *Run) sameAnswer(i, j int, simBits int) bool {
	if v.sameReply(i, j, simBits) {
		return true
	}
	// A turn of conversation said again word for word is answered alike
	// whatever the reply says: the reply to the first did not change what
	// the agent says (a customer restating a request to an agent that
	// keeps asking them to rephrase it). That holds for a turn to the
	// user, who answers from outside the run, and for an instruction one
	// agent hands another (sameInstruction); other turns between agents
	// are each agent's words, steps of their own.
	if v.Flags[i]&(flagResult|flagError) != flagResult || v.Flags[j]&(flagResult|flagError) != flagResult {
		return false
	}
	return (v.toUser(i) && v.toUser(j)) || v.sameInstruction(i, j)
}

// instructs reports whether step i is an instruction one agent of the run
// hands another (a turn of conversation in the PLAN state).
func (v *Run) instructs(i int) bool {
	return v.isMessage(i) && v.State[i] == schema.StatePlan && v.Names.IntentName(v.Intent[i]) != schema.IntentUser
}

// sameInstruction reports whether steps i and j are one instruction
// handed out again word for word: it carries the state it is about (the
// code to review, the report to fix), so nothing it carries changed.
func (v *Run) sameInstruction(i, j int) bool {
	return v.Args[i] == v.Args[j] && v.instructs(i) && v.instructs(j)
}

// toUser reports whether step i is a turn of conversation addressed to
// the user (schema.IntentUser), who answers from outside the run.
func (v *Run) toUser(i int) bool {
	return v.isMessage(i) && v.Names.IntentName(v.Intent[i]) == schema.IntentUser
}

// sameReply reports whether steps i and j got the same result: both
// without one, or results that are equal or near-identical.
func (v *Run) sameReply(i, j int, simBits int) bool {
	ri, rj := v.Flags[i]&flagResult != 0, v.Flags[j]&flagResult != 0
	if ri != rj {
		return false
	}
	if !ri || v.Result[i] == v.Result[j] {
		return true
	}
	if v.readAlike(i, j) {
		return true
	}
	if (v.Flags[i]^v.Flags[j])&(flagError|flagEmpty) != 0 {
		return false // a failure and a success are never the same answer
	}
	if v.Flags[i]&flagError != 0 && v.ErrType[i] != v.ErrType[j] {
		return false // another kind of error is another answer, however alike the texts
	}
	return schema.SimHashSimilar(v.Sim[i], v.Sim[j], simBits)
}

// sameCall is the call identity near-duplicates share: tool and
// normalised args, or the exact identity for calls without args.
func (v *Run) sameCall(i int) uint64 {
	if v.Norm[i] == 0 {
		return v.call[i]
	}
	return callIdentity(v.Tool[i], uint64(v.Norm[i]))
}

// likeCall reports whether calls i and j are the same call, or calls of
// one tool with near-identical long args (an edit re-sent with another
// indentation or a word changed: answers.go's similarity, applied to what
// was asked).
func (v *Run) likeCall(i, j int, simBits int) bool {
	return v.sameCall(i) == v.sameCall(j) ||
		(v.Tool[i] == v.Tool[j] && schema.SimHashSimilar(v.ArgSim[i], v.ArgSim[j], simBits))
}

// simBits is the policy's similarity as a Hamming distance.
func (p *Policy) simBits() int { return schema.SimilarityBits(p.ResultSimilarity) }

// isMessage reports whether step i is a turn of conversation
// (schema.ToolMessage), whose result is another's reply.
func (v *Run) isMessage(i int) bool {
	return v.Names.ToolName(v.Tool[i]) == schema.ToolMessage
}

// sameReplies reports whether the steps at idx, in order, each got the
// same result as the one before (sameReply).
func (v *Run) sameReplies(idx []int, simBits int) bool {
	for k := 1; k < len(idx); k++ {
		if !v.sameReply(idx[k-1], idx[k], simBits) {
			return false
		}
	}
	return true
}

// readAlike reports whether the same call, made twice without its output
// logged, got answers that differ only in how the agent's words read them
// (schema.ErrSaidFailed, ErrSaidAgain): one call the words say failed, the
// other they say nothing of. Nothing tells the two answers apart but the
// words, and the same command sent again gets what it got before; the
// agent sends it again because it did not get what it wanted.
func (v *Run) readAlike(i, j int) bool {
	if v.Args[i] != v.Args[j] || v.Tool[i] != v.Tool[j] || v.Flags[i]&flagPayload != 0 || v.Flags[j]&flagPayload != 0 {
		return false
	}
	said := func(k int) bool {
		if v.Flags[k]&flagError == 0 {
			return v.Flags[k]&flagEmpty == 0
		}
		t := v.Names.ErrTypeName(v.ErrType[k])
		return t == schema.ErrSaidFailed || t == schema.ErrSaidAgain
	}
	return said(i) && said(j)
}
