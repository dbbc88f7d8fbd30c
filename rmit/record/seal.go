package record

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// seal returns the hash of h without its seal, as JSON, after one round
// trip through JSON, so that the header as written and as read back (with
// its invalid UTF-8 replaced, say) hash alike.
func (h *Header) seal() (string, error) {
	c := *h
	c.Seal = ""
	b, err := json.Marshal(&c)
	if err == nil {
		c = Header{}
		err = json.Unmarshal(b, &c)
	}
	if err == nil {
		b, err = json.Marshal(&c)
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8]), nil
}

// Edited reports whether h was changed since Writer wrote it: its seal
// does not match its fields. A header without a seal (written by an older
// gobench-dyn, or by hand) is not known to be edited.
func (h *Header) Edited() bool {
	if h.Seal == "" {
		return false
	}
	seal, err := h.seal()
	return err != nil || seal != h.Seal
}
