// The console works without this file. With it: pages that show live
// state (overview, approvals, health) refresh themselves while visible and
// untouched, a new token can be copied, and destructive forms ask first.
(function () {
  "use strict";
  var secs = parseInt(document.body.getAttribute("data-refresh") || "0", 10);
  var touched = false;
  document.addEventListener("input", function () { touched = true; });
  if (secs > 0) {
    setInterval(function () {
      if (!touched && document.visibilityState === "visible") { location.reload(); }
    }, secs * 1000);
  }
  document.querySelectorAll("button.copy[data-copy]").forEach(function (b) {
    var target = document.getElementById(b.getAttribute("data-copy"));
    if (!target || !navigator.clipboard) { return; }
    b.hidden = false;
    b.addEventListener("click", function () {
      navigator.clipboard.writeText(target.textContent).then(function () { b.textContent = "Copied"; });
    });
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (f) {
    f.addEventListener("submit", function (e) {
      if (!window.confirm(f.getAttribute("data-confirm"))) { e.preventDefault(); }
    });
  });
})();
