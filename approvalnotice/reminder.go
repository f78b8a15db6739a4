package approvalnotice

import "time"

// reminderShare is the share of a gate's life left when it is reminded
// of: a fifth, so 4 h 48 min before a 24-hour gate expires.
const reminderShare = 5

// minReminderLead is the least time before expiry a reminder is worth
// sending: a gate that lives under five minutes gets none.
const minReminderLead = time.Minute

// RemindAt is when a gate held at created and expiring at expires is
// reminded of, if it is still pending: when a fifth of its life remains.
// ok is false for a gate too short-lived for a reminder to help (a fifth
// of its life under a minute).
func RemindAt(created, expires time.Time) (at time.Time, ok bool) {
	lead := expires.Sub(created) / reminderShare
	if lead < minReminderLead {
		return time.Time{}, false
	}
	return expires.Add(-lead), true
}
