// Starts the page's script (the bundle its tag names in data-script, already downloading: the page's
// head preloads it) once the slide has painted, never before: a phone shows the slide's words first,
// and everything the script asks for (results, the chart library) comes after the first paint, on every
// load, not only on the loads where the script happened to arrive late. A classic script, not a module.
(() => {
  const tag = document.currentScript;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement("script");
    script.src = tag.dataset.script;
    document.head.append(script);
  };
  requestAnimationFrame(() => setTimeout(start));
  setTimeout(start, 200); // a hidden tab paints nothing
})();
