package redact

import "testing"

func BenchmarkText(b *testing.B) {
	r := New(nil)
	const s = "Plan: 1) list merged PRs since the last tag 2) group PRs by label 3) check migration notes 4) draft the notes"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		r.Text(s)
	}
}

func BenchmarkJSON(b *testing.B) {
	r := New(nil)
	raw := []byte(`{"q": "AutoGPT memory loop runaway", "top_k": 5, "request_id": "req-8f2a9c", "filters": {"lang": "en", "since": 20240101}}`)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := r.JSON(raw); err != nil {
			b.Fatal(err)
		}
	}
}
