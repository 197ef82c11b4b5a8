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

  // A link to an episode (the per-task table's, an episode's own #id, a URL ending in #task-N) opens it,
  // showing it first if the filters hide it; the browser then scrolls to it.
  function open(id) {
    var episode = document.getElementById(id);
    if (!episode || !episode.classList.contains("episode")) return;
    if (episode.hidden) {
      document.querySelectorAll('.filter button[data-value="all"]').forEach(function (all) { all.click(); });
    }
    episode.querySelector("details").open = true;
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest('a[href^="#task-"]');
    if (link) open(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  window.addEventListener("hashchange", function () { open(decodeURIComponent(location.hash.slice(1))); });
  if (location.hash) {
    open(decodeURIComponent(location.hash.slice(1)));
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }

  // Screenshots are thumbnails beside each step; a click shows one at full size, Escape or a click closes it.
  var lightbox = document.getElementById("lightbox");
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".shot-button");
    if (button) {
      var image = lightbox.querySelector("img");
      var thumbnail = button.querySelector("img");
      image.src = thumbnail.src;
      image.alt = thumbnail.alt;
      lightbox.showModal();
    } else if (event.target.closest("#lightbox")) {
      lightbox.close();
    }
  });
})();
