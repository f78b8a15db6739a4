package apiversion

import "regexp"

// linkedInAds: the version travels in the LinkedIn-Version header (YYYYMM).
//
// LinkedIn releases a version each month except December (there is no 202412
// or 202512: its recent-changes and migrations pages go from 202411 to 202501
// and from 202511 to 202601) and sunsets it about a year later, mid-month.
// Release days are the first of the month, as LinkedIn names versions by
// month and publishes no day. Sunset dates are from LinkedIn's migrations
// page (202410–202411 and 202510–202603 as read there; 202501–202509 and
// 202604–202607 from the sunset lists of its recent-changes page, as captured
// on 2026-08-13).
//
// 202608–202611 follow from LinkedIn's policy, not from a published table:
// no copy of LinkedIn's pages found for this release (on 2026-11-27) lists
// them or their sunsets. Its versioning page (the copy whose latest version
// is 202603) says "Our versioned API releases follow a monthly cycle. These
// API versions are supported and stable for a minimum of one year before
// sunset", so by 2026-11-27 August to November 2026 have each had their
// version, and none is sunset before a year has passed. Their sunset is the
// 15th of the same month a year on: LinkedIn states no rule for the day,
// but every sunset above falls on the 15th to the 17th, so the 15th is the
// earliest it has used and warnings come no later than they should. Their
// Source is the versioning page, which states the policy.
//
// The default is 202606: LinkedIn's documentation is published for it
// (the li-lms-2026-06 view of the Reporting and Lead Sync pages, which the
// adapter's facts were transcribed from) and it is supported until
// 2027-06-15. No view of the pages for a later version was found, so the
// default does not move past the version the facts describe.
func linkedInAds() Provider {
	const (
		src        = "https://learn.microsoft.com/en-us/linkedin/marketing/integrations/migrations"
		versioning = "https://learn.microsoft.com/en-us/linkedin/marketing/versioning"
	)
	v := func(name, released, sunset string) Version {
		return Version{Name: name, Released: day(released), Sunset: day(sunset), Source: src}
	}
	// byPolicy is a version whose dates follow from the versioning page's
	// policy (see above), not from a date LinkedIn published.
	byPolicy := func(name, released, sunset string) Version {
		return Version{Name: name, Released: day(released), Sunset: day(sunset), Source: versioning}
	}
	return Provider{
		Key: "linkedin_ads", Name: "LinkedIn Marketing API", Setting: "GTMGATE_LINKEDIN_ADS_API_VERSION",
		Default: "202606", Pattern: regexp.MustCompile(`^[0-9]{6}(\.[0-9]{2})?$`), Where: "LinkedIn-Version",
		Policy: "a monthly version (none in December) is supported for at least one year, then sunset mid-month; " +
			"a sunset or never-released version is refused with HTTP 426 NONEXISTENT_VERSION",
		Versions: []Version{
			v("202410", "2024-10-01", "2025-10-15"),
			v("202411", "2024-11-01", "2025-11-17"),
			v("202501", "2025-01-01", "2026-01-15"),
			v("202502", "2025-02-01", "2026-02-16"),
			v("202503", "2025-03-01", "2026-03-16"),
			v("202504", "2025-04-01", "2026-04-15"),
			v("202505", "2025-05-01", "2026-05-15"),
			v("202506", "2025-06-01", "2026-06-15"),
			v("202507", "2025-07-01", "2026-07-15"),
			v("202508", "2025-08-01", "2026-08-17"),
			v("202509", "2025-09-01", "2026-09-15"),
			v("202510", "2025-10-01", "2026-10-15"),
			v("202511", "2025-11-01", "2026-11-16"),
			v("202601", "2026-01-01", "2027-01-15"),
			v("202602", "2026-02-01", "2027-02-15"),
			v("202603", "2026-03-01", "2027-03-16"),
			v("202604", "2026-04-01", "2027-04-15"),
			v("202605", "2026-05-01", "2027-05-15"),
			v("202606", "2026-06-01", "2027-06-15"),
			v("202607", "2026-07-01", "2027-07-15"),
			byPolicy("202608", "2026-08-01", "2027-08-15"),
			byPolicy("202609", "2026-09-01", "2027-09-15"),
			byPolicy("202610", "2026-10-01", "2027-10-15"),
			byPolicy("202611", "2026-11-01", "2027-11-15"),
		},
	}
}
