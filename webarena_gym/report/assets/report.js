// Filters of a webarena-gym report: show the episodes (and comparison rows) of one site and one outcome.
(function () {
  "use strict";
  var state = { site: "all", outcome: "all" };

  function matches(element) {
    return (state.site === "all" || element.dataset.site === state.site) &&
      (state.outcome === "all" || element.dataset.outcome === state.outcome);
  }

  function apply() {
    var shown = 0, total = 0;
    document.querySelectorAll("[data-site][data-outcome]").forEach(function (element) {
      var visible = matches(element);
      element.hidden = !visible;
      if (element.classList.contains("episode")) {
        total += 1;
        if (visible) shown += 1;
      }
    });
    document.getElementById("shown").textContent = shown + " of " + total + " episodes shown";
  }

  document.querySelectorAll(".filter").forEach(function (group) {
    group.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      group.querySelectorAll("button").forEach(function (other) {
        var active = other === button;
        other.classList.toggle("active", active);
        other.setAttribute("aria-pressed", String(active));
      });
      state[group.dataset.filter] = button.dataset.value;
      apply();
    });
  });
  apply();
})();
