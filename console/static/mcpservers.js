// The MCP server form works without this file (every auth field is shown,
// labelled with the kind that uses it). With it, only the chosen kind's
// fields are shown.
(function () {
  "use strict";
  var kind = document.getElementById("mcp-kind");
  if (!kind || kind.dataset.wired) { return; }
  kind.dataset.wired = "1";
  function show() {
    document.querySelectorAll(".mcp-auth[data-kinds]").forEach(function (d) {
      d.hidden = d.getAttribute("data-kinds").split(" ").indexOf(kind.value) < 0;
    });
  }
  kind.addEventListener("change", show);
  show();
})();
