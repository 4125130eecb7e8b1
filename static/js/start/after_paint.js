// Starts the page's script (the bundle its tag names in data-script, already downloading: the page's
// head preloads it) once the slide has painted, never before: a phone shows the slide's words first,
// and everything the script asks for (results, the chart library) comes after the first paint, on every
// load, not only on the loads where the script happened to arrive late. A classic script, not a module.
// On a slide that opens on a result (the page says so: data-chart-first), the chart library starts
// downloading at the same moment, at low priority, while the script runs (charts.js fetchPlotly takes
// the download over): on a hall's Wi-Fi the first chart comes a third of a second sooner than if the
// script asked for it once it had run. A slide whose poll comes first leaves the link to its own
// answers (the poll, the class) and gets the library after the script has run, as before.
(() => {
  const tag = document.currentScript;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement("script");
    script.src = tag.dataset.script;
    document.head.append(script);
    const plotly = document.body.dataset.plotlyUrl;
    if (plotly && document.body.dataset.chartFirst && location.protocol.startsWith("http")) {
      const link = Object.assign(document.createElement("link"), { rel: "preload", as: "fetch", href: plotly, crossOrigin: "anonymous" });
      link.setAttribute("fetchpriority", "low");
      document.head.append(link);
    }
  };
  // After the frame in which the slide is painted (a task queued from its animation frame runs once that
  // frame's paint is done). A hidden tab paints nothing, so it starts at once; and should no frame come
  // (a busy or headless browser may pause them), after a second. (A fallback of 0.2 s, tried first,
  // often came before the first paint on a busy machine, which then waited for the script.)
  if (document.visibilityState === "hidden") start();
  else {
    requestAnimationFrame(() => setTimeout(start));
    setTimeout(start, 1000);
  }
})();
