package gmail

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strings"
	"time"
)

type seedMail struct {
	from, to, cc string
	hoursAgo     float64
	text, html   string
	attachment   *seedAttachment
	labels       []string
}

type seedAttachment struct{ name, mimeType, content string }

type seedThread struct {
	subject string
	mails   []seedMail
}

const (
	alex  = "Alex Rivera <alex@ledgerly.example>"
	sales = "Ledgerly Sales <sales@ledgerly.example>"
)

// alexThreads is the seeded mailbox of Ledgerly's head of growth.
var alexThreads = []seedThread{
	{"Q3 renewal — Acme Logistics", []seedMail{
		{from: "Dana Ortiz <dana.ortiz@acmelogistics.example>", to: alex, hoursAgo: 170, labels: []string{"INBOX", "Label_1"},
			text: "Hi Alex,\n\nOur contract renews on the 30th. Before we sign, can you send the updated quote for 45 seats and the SSO add-on?\n\nThanks,\nDana"},
		{from: alex, to: "Dana Ortiz <dana.ortiz@acmelogistics.example>", hoursAgo: 150, labels: []string{"SENT", "Label_1"},
			text:       "Hi Dana,\n\nQuote attached: 45 seats on the Growth plan plus SSO, 12% multi-year discount if you sign for two years.\n\nBest,\nAlex",
			attachment: &seedAttachment{"Acme_renewal_quote_Q3.pdf", "application/pdf", "%PDF-1.4\n% Ledgerly quote 2291 for Acme Logistics\n%%EOF\n"}},
		{from: "Dana Ortiz <dana.ortiz@acmelogistics.example>", to: alex, cc: "Priya Shah <priya.shah@acmelogistics.example>", hoursAgo: 30,
			labels: []string{"INBOX", "UNREAD", "Label_1"},
			text:   "Thanks Alex. Looping in Priya from procurement. Two years works if the discount holds. Can we do a call Thursday?"},
	}},
	{"Intro: Ledgerly <> Brightwave (revenue analytics)", []seedMail{
		{from: "Sam Okafor <sam@brightwave.example>", to: alex, cc: "Lena Fischer <lena@brightwave.example>", hoursAgo: 96, labels: []string{"INBOX"},
			text: "Alex, meet Lena, VP Finance at Brightwave. Lena is looking at MRR and cohort reporting for their board pack. I'll let you two take it from here."},
		{from: alex, to: "Lena Fischer <lena@brightwave.example>", cc: "Sam Okafor <sam@brightwave.example>", hoursAgo: 90, labels: []string{"SENT"},
			text: "Thanks Sam (to bcc). Lena, great to meet you. Would a 30 minute walkthrough next Tuesday or Wednesday work?"},
		{from: "Lena Fischer <lena@brightwave.example>", to: alex, hoursAgo: 70, labels: []string{"INBOX", "Label_2"},
			text: "Wednesday 10:00 CET works. Please include how you handle multi-currency ARR."},
	}},
	{"Demo follow-up: Northpeak Software", []seedMail{
		{from: alex, to: "Marco Bianchi <marco@northpeak.example>", hoursAgo: 60, labels: []string{"SENT", "Label_2"},
			text: "Hi Marco,\n\nThanks for your time today. Recording and the ROI sheet we discussed: https://ledgerly.example/r/northpeak\n\nAlex",
			html: "<p>Hi Marco,</p><p>Thanks for your time today. Recording and the ROI sheet we discussed: <a href=\"https://ledgerly.example/r/northpeak\">Northpeak ROI</a></p><p>Alex</p>"},
		{from: "Marco Bianchi <marco@northpeak.example>", to: alex, hoursAgo: 20, labels: []string{"INBOX", "UNREAD", "IMPORTANT", "Label_2"},
			html: "<html><head><style>p{margin:0}</style></head><body><p>Hi Alex,</p><p>The team liked it. <b>Next step:</b> a security review.</p><ul><li>SOC 2 report</li><li>DPA</li></ul><p>Marco</p></body></html>"},
	}},
	{"Your Stripe payout is on the way", []seedMail{
		{from: "Stripe <notifications@stripe.example>", to: alex, hoursAgo: 40, labels: []string{"INBOX", "CATEGORY_UPDATES"},
			html: "<html><body><h1>Payout of $18,420.00 is on the way</h1><p>Expected to arrive in 2 business days.</p></body></html>"},
	}},
	{"Webinar speakers — SaaS Metrics Live", []seedMail{
		{from: "Chloé Martin <chloe@saasmetricslive.example>", to: alex, hoursAgo: 300, labels: []string{"INBOX"},
			text: "Bonjour Alex, would you speak at SaaS Metrics Live on net revenue retention benchmarks? 25 minutes plus Q&A."},
		{from: alex, to: "Chloé Martin <chloe@saasmetricslive.example>", hoursAgo: 290, labels: []string{"SENT"},
			text: "Merci Chloé, happy to. I can share the 2025 benchmark data from our blog post."},
		{from: "Chloé Martin <chloe@saasmetricslive.example>", to: alex, hoursAgo: 200, labels: []string{"INBOX"},
			text: "Parfait. Slides are due two weeks before the event; I'll send the speaker kit."},
	}},
	{"Pipeline review notes (week 32)", []seedMail{
		{from: "Jordan Lee <jordan@ledgerly.example>", to: alex, hoursAgo: 50, labels: []string{"INBOX", "Label_3"},
			text:       "Notes from today's pipeline review attached. Commit is $212k, best case $340k. Acme and Northpeak are the swing deals.",
			attachment: &seedAttachment{"pipeline_w32.csv", "text/csv", "deal,stage,amount\nAcme Logistics renewal,Negotiation,54000\nNorthpeak Software,Security review,38000\n"}},
		{from: alex, to: "Jordan Lee <jordan@ledgerly.example>", hoursAgo: 45, labels: []string{"SENT", "Label_3"},
			text: "Thanks. I'll own the Acme renewal call on Thursday."},
	}},
	{"Pricing question from Helio Health", []seedMail{
		{from: "Ravi Menon <ravi@heliohealth.example>", to: sales, hoursAgo: 80, labels: []string{"INBOX"},
			text: "Do you offer non-profit or healthcare pricing? We're 30 people in finance and ops."},
		{from: alex, to: "Ravi Menon <ravi@heliohealth.example>", hoursAgo: 75, labels: []string{"SENT"},
			text: "Hi Ravi, we don't have a healthcare tier, but annual plans are 2 months free. Happy to walk you through it."},
		{from: "Ravi Menon <ravi@heliohealth.example>", to: alex, hoursAgo: 5, labels: []string{"INBOX", "UNREAD"},
			text: "Thanks. Could you send a quote for 30 seats, annual?"},
	}},
	{"Partnership: HubSpot App Marketplace listing", []seedMail{
		{from: "Partner Team <partners@hubspot.example>", to: alex, hoursAgo: 400, labels: []string{"INBOX"},
			text: "Your app listing for Ledgerly is approved pending a final review of the install flow."},
		{from: alex, to: "Partner Team <partners@hubspot.example>", hoursAgo: 380, labels: []string{"SENT"},
			text: "Great news. The install flow now asks only for the CRM read scopes."},
	}},
}

var salesThreads = []seedThread{
	{"Request a demo: Fernhill Capital", []seedMail{
		{from: "Website <forms@ledgerly.example>", to: sales, hoursAgo: 12, labels: []string{"INBOX", "UNREAD"},
			text: "New demo request\nName: Olivia Grant\nCompany: Fernhill Capital\nSeats: 12\nMessage: Need board-ready ARR reporting."},
	}},
	{"Invoice INV-2025-0412", []seedMail{
		{from: "Billing <billing@ledgerly.example>", to: sales, hoursAgo: 100, labels: []string{"INBOX"},
			text: "Invoice INV-2025-0412 for Brightwave ($4,900.00) was paid."},
	}},
}

func (s *Sandbox) seed(now time.Time) {
	labels := map[string]string{"INBOX": "INBOX", "SENT": "SENT", "DRAFT": "DRAFT", "UNREAD": "UNREAD", "IMPORTANT": "IMPORTANT",
		"STARRED": "STARRED", "SPAM": "SPAM", "TRASH": "TRASH", "CATEGORY_UPDATES": "CATEGORY_UPDATES",
		"Label_1": "Customers", "Label_2": "Deals", "Label_3": "Internal"}
	for _, box := range []struct {
		addr    string
		threads []seedThread
	}{{"alex@ledgerly.example", alexThreads}, {"sales@ledgerly.example", salesThreads}} {
		addr, threads := box.addr, box.threads
		mb := &mailbox{address: addr, drafts: map[string]string{}, labels: labels}
		s.mailboxes[addr] = mb
		for ti, t := range threads {
			threadID, prev := "", ""
			for mi, m := range t.mails {
				date := now.Add(-time.Duration(m.hoursAgo * float64(time.Hour))).Truncate(time.Second)
				msgID := fmt.Sprintf("<seed-%d-%d@%s>", ti, mi, domainOf(m.from))
				subject := t.subject
				if mi > 0 {
					subject = "Re: " + subject
				}
				stored, err := s.store(mb, seedRaw(m, subject, date, msgID, prev), threadID, m.labels, date)
				if err != nil {
					panic(fmt.Sprintf("gmail sandbox seed %q: %v", t.subject, err))
				}
				threadID, prev = stored.threadID, msgID
			}
		}
	}
}

func domainOf(addr string) string {
	_, d, _ := strings.Cut(strings.TrimSuffix(addr, ">"), "@")
	return d
}

// seedRaw writes a seeded message as MIME the way common mail clients do:
// text/plain, HTML-only, multipart/alternative, or multipart/mixed with an
// attachment (bodies base64 encoded).
func seedRaw(m seedMail, subject string, date time.Time, msgID, inReplyTo string) []byte {
	var b bytes.Buffer
	o := Outgoing{From: m.from, To: []string{m.to}, Subject: subject, Date: date, MessageID: msgID}
	if m.cc != "" {
		o.Cc = []string{m.cc}
	}
	h := &headerWriter{}
	h.addresses("From", []string{o.From})
	h.addresses("To", o.To)
	h.addresses("Cc", o.Cc)
	h.subject(subject)
	h.line("Date", date.Format(time.RFC1123Z))
	h.line("Message-ID", msgID)
	if inReplyTo != "" {
		h.line("In-Reply-To", inReplyTo)
		h.line("References", inReplyTo)
	}
	h.line("MIME-Version", "1.0")
	b.Write(h.buf.Bytes())
	leaf := func(w *multipart.Writer, typ, content string) {
		pw, _ := w.CreatePart(textproto.MIMEHeader{"Content-Type": {typ}, "Content-Transfer-Encoding": {"base64"}})
		pw.Write([]byte(base64.StdEncoding.EncodeToString([]byte(content))))
	}
	switch {
	case m.attachment == nil && m.html == "":
		b.WriteString("Content-Type: text/plain; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: base64\r\n\r\n")
		b.WriteString(base64.StdEncoding.EncodeToString([]byte(m.text)))
	case m.attachment == nil && m.text == "":
		b.WriteString("Content-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: base64\r\n\r\n")
		b.WriteString(base64.StdEncoding.EncodeToString([]byte(m.html)))
	case m.attachment == nil:
		w := multipart.NewWriter(&b)
		fmt.Fprintf(&b, "Content-Type: multipart/alternative; boundary=%q\r\n\r\n", w.Boundary())
		leaf(w, `text/plain; charset="UTF-8"`, m.text)
		leaf(w, `text/html; charset="UTF-8"`, m.html)
		w.Close()
	default:
		w := multipart.NewWriter(&b)
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=%q\r\n\r\n", w.Boundary())
		leaf(w, `text/plain; charset="UTF-8"`, m.text)
		a := m.attachment
		pw, _ := w.CreatePart(textproto.MIMEHeader{"Content-Type": {a.mimeType + "; name=\"" + a.name + "\""},
			"Content-Disposition": {"attachment; filename=\"" + a.name + "\""}, "Content-Transfer-Encoding": {"base64"}})
		pw.Write([]byte(base64.StdEncoding.EncodeToString([]byte(a.content))))
		w.Close()
	}
	return b.Bytes()
}
