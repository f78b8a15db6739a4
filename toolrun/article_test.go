package toolrun

import "testing"

// TestArticle: a replay refusal reads "an incident", "a failure".
func TestArticle(t *testing.T) {
	for word, want := range map[string]string{"incident": "an", "alert": "an", "failure": "a", "": "a"} {
		if got := article(word); got != want {
			t.Errorf("article(%q) = %q, want %q", word, got, want)
		}
	}
}
