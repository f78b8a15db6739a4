package brave

// The codes Brave documents for the country and search_lang parameters. The
// Web Search and News Search references list the same codes on their Codes
// pages (api-dashboard.search.brave.com/app/documentation/web-search/codes and
// …/news-search/codes), and Brave refuses anything else with 422 VALIDATION:
// lower-case country codes, "uk" for Britain, and countries outside the list
// ("SG", "VN") included.
var (
	documentedCountries = []string{"ALL", "AR", "AU", "AT", "BE", "BR", "CA", "CL", "DK", "FI", "FR", "DE",
		"HK", "IN", "ID", "IT", "JP", "KR", "MY", "MX", "NL", "NZ", "NO", "CN", "PL", "PT", "PH", "RU", "SA",
		"ZA", "ES", "SE", "CH", "TW", "TR", "GB", "US"}
	documentedLanguages = []string{"ar", "eu", "bn", "bg", "ca", "zh-hans", "zh-hant", "hr", "cs", "da", "nl",
		"en", "en-gb", "et", "fi", "fr", "gl", "de", "gu", "he", "hi", "hu", "is", "it", "jp", "kn", "ko", "lv",
		"lt", "ms", "ml", "mr", "nb", "pl", "pt-br", "pt-pt", "pa", "ro", "ru", "sr", "sk", "sl", "es", "sv",
		"ta", "te", "th", "tr", "uk", "vi"}
)

// endpoint is one Brave search endpoint as its API reference describes it.
type endpoint struct {
	path     string
	maxCount int
	// safeSearch is Brave's default for the safesearch parameter, which
	// differs between endpoints.
	safeSearch           string
	countries, languages []string
}

// webEndpoint follows api-dashboard.search.brave.com/api-reference/web/search/get.
var webEndpoint = endpoint{path: "/web/search", maxCount: 20, safeSearch: "moderate",
	countries: documentedCountries, languages: documentedLanguages}

// newsEndpoint follows api-dashboard.search.brave.com/api-reference/news/news_search/get.
var newsEndpoint = endpoint{path: "/news/search", maxCount: 50, safeSearch: "strict",
	countries: documentedCountries, languages: documentedLanguages}

func enum(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}
