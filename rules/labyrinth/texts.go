package labyrinth

import "slices"

// AppendStateTexts appends the text of each of states to dst, in order
// (dst[len(dst)+i] == states[i].String(), byte for byte), and returns the
// extended slice. The texts are substrings of one string built for the
// whole list: for up to 256 states of about one length, one allocation for
// all of them when the text fits 2 KB and two otherwise (plus dst's growth
// when it lacks capacity), instead of one per state. This is the call for
// the result states of a move list (the state after every listed move).
//
// Each engine has its own copy on purpose: one generic version over
// encoding.TextAppender lets the stack buffers escape to the heap (one
// more allocation per list, measured by TestNotationAllocs).
func AppendStateTexts(dst []string, states []State) []string {
	if len(states) == 0 {
		return dst
	}
	var stack [2048]byte
	buf := stack[:0]
	// Size the buffer from the first text, with a quarter more: the states
	// of one list have texts of about one length.
	first, _ := states[0].AppendText(buf)
	if need := len(first)*len(states) + len(states)*len(first)/4 + 64; need > cap(buf) {
		buf = make([]byte, 0, need)
	}
	var endStack [256]int32
	ends := endStack[:0]
	for _, s := range states {
		buf, _ = s.AppendText(buf)
		ends = append(ends, int32(len(buf)))
	}
	text := string(buf)
	dst = slices.Grow(dst, len(ends))
	start := int32(0)
	for _, e := range ends {
		dst = append(dst, text[start:e])
		start = e
	}
	return dst
}
