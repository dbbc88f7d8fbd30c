package fileread

import (
	"os"
	"testing"
)

// BenchmarkCount counts the words of testdata/words.txt.
func BenchmarkCount(b *testing.B) {
	data, err := os.ReadFile("testdata/words.txt")
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	for i := 0; i < b.N; i++ {
		Count(text)
	}
}

func TestCount(t *testing.T) {
	got := Count("The cat; the hat.")
	if got["the"] != 2 || got["cat"] != 1 || got["hat"] != 1 || len(got) != 3 {
		t.Fatalf("Count = %v", got)
	}
}
