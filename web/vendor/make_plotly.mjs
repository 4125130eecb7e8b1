// Bundles plotly.js's core with the trace types web/vendor/plotly.json lists, then compresses it.
// Plotly's README offers two ways to a partial build: its custom-bundle script, which needs a git
// checkout of Plotly (its tasks/ are not in the npm package), or bundling lib/core and the trace
// modules, as its lib/index-basic.js does (`Plotly.register([...])`), which is what this does, with
// the esbuild settings of Plotly's own bundles (esbuild-config.js in its package). Run by
// make_plotly.sh from the folder where it installed the pinned toolchain; the argument is
// web/vendor/, where it writes.
import { gzipAsync } from '@gfx/zopfli';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

const vendor = process.argv[2];
const recordPath = path.join(vendor, 'plotly.json');
const record = JSON.parse(fs.readFileSync(recordPath, 'utf8'));
const require = createRequire(import.meta.url);
const plotly = path.dirname(require.resolve('plotly.js/package.json'));
const version = require('plotly.js/package.json').version;
if (version !== record.version) throw new Error(`plotly.json says ${record.version}, the toolchain installs ${version}`);

// Every trace type of this version: each has a module in lib/ that re-exports src/traces/<type>.
const lib = path.join(plotly, 'lib');
const allTraces = fs.readdirSync(lib).filter((name) => name.endsWith('.js'))
  .map((name) => name.slice(0, -3))
  .filter((name) => fs.readFileSync(path.join(lib, `${name}.js`), 'utf8').includes(`src/traces/${name}'`));
const unknown = record.traces.filter((trace) => !allTraces.includes(trace));
if (unknown.length) throw new Error(`plotly.js ${version} has no trace type ${unknown.join(', ')}`);

// The core registers scatter itself.
const entry = [
  "var Plotly = require('plotly.js/lib/core');",
  `Plotly.register([${record.traces.filter((t) => t !== 'scatter').map((t) => `require('plotly.js/lib/${t}')`).join(', ')}]);`,
  'module.exports = Plotly;',
].join('\n');

// The core's registry imports maplibre-gl's stylesheet (83 KB) for map subplots, inside a branch that
// only a map trace reaches: this build has none, so the import is left empty.
const noMapStyles = {
  name: 'no-map-styles',
  setup(bundler) {
    bundler.onResolve({ filter: /^maplibre-gl\/dist\/maplibre-gl\.css$/ }, () => ({ path: 'maplibre-gl.css', namespace: 'empty' }));
    bundler.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }));
  },
};

// As Plotly's bundles do (its strip-meta plugin): the attributes' descriptions and other metadata
// serve only its schema's documentation, not drawing; dropping them saves an eighth.
// And Plotly's core registers every layout component; the deck's charts use none of those plotly.json
// lists under left_out (menus, sliders, range sliders and selectors, layout images, 3D annotations), so
// its src/core.js is read without their lines. Nothing else requires them: they leave the build, and a
// layout naming one is ignored, as Plotly ignores any unregistered component. A name not in core.js
// (another Plotly version) stops the build.
const META = [
  "description: '.*'", 'description: \\[[\\s\\S]*?\\]\\.join\\([\\s\\S]*?\\)', 'requiredOpts: \\[[\\s\\S]*?\\]',
  'otherOpts: \\[[\\s\\S]*?\\]', "role: '.*'", "hrName: '.*'",
].map((attribute) => new RegExp(`\\s*${attribute},?`, 'g'));
const CORE = /plotly\.js[\\/]src[\\/]core\.js$/;
const leftOut = record.left_out ?? [];

function withoutComponents(source) {
  for (const name of leftOut) {
    const line = new RegExp(`\\n\\s*require\\('\\./components/${name}'\\),`);
    if (!line.test(source)) throw new Error(`plotly.js ${version}'s core registers no component ${name}`);
    source = source.replace(line, '');
  }
  return source;
}

// Every source file as esbuild reads it: less its metadata, and core.js less the components left out.
const plotlySource = {
  name: 'plotly-source',
  setup(bundler) {
    bundler.onLoad({ filter: /\.js$/ }, ({ path: file }) => {
      const source = fs.readFileSync(file, 'utf8');
      return { contents: META.reduce((stripped, pattern) => stripped.replace(pattern, ''), CORE.test(file) ? withoutComponents(source) : source), loader: 'js' };
    });
  },
};

const bundled = await build({
  stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: 'plotly-entry.js' },
  write: false,
  bundle: true,
  minify: true,
  format: 'iife',
  globalName: 'Plotly',
  target: 'es2016',
  define: { global: 'window', 'define.amd': 'false' },
  alias: { regl: '@plotly/regl', stream: 'stream-browserify' },
  plugins: [plotlySource, noMapStyles],
  logLevel: 'warning',
});

// Plotly's header (from its full bundle) naming this build, then the bundle as a plain script: esbuild's
// `var Plotly = (() => {...})()` defines the global itself. Plotly's own bundles wrap that in a UMD
// function as well, for require() and AMD; the page never needs either, and V8 compiles the wrapper's function
// lazily, so the browser read the megabyte once more before running it: the script ran in 236 ms
// without it against 302 ms with it (median of 7, headless Chromium on the 2-core machine).
const header = fs.readFileSync(path.join(plotly, 'dist', 'plotly.min.js'), 'utf8').match(/^\/\*\*[\s\S]*?\*\/\n/)[0]
  .replace('plotly.js', `plotly.js (${record.build}: ${record.traces.join(', ')} - minified)`);
const wrapped = header + bundled.outputFiles[0].text;

const raw = Buffer.from(wrapped);
const gzipped = Buffer.from(await gzipAsync(raw, { numiterations: 15 })); // zopfli: a smaller gzip, any browser reads it
const brotli = zlib.brotliCompressSync(raw, {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
});
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const file = `plotly-${record.build}.min.js`;
fs.writeFileSync(path.join(vendor, file), raw);
fs.writeFileSync(path.join(vendor, `${file}.gz`), gzipped);
fs.writeFileSync(path.join(vendor, `${file}.br`), brotli);
fs.copyFileSync(path.join(plotly, 'LICENSE'), path.join(vendor, 'LICENSE-plotly.txt'));

Object.assign(record, {
  file,
  sha256: sha256(raw),
  encodings: {
    gzip: { file: `${file}.gz`, sha256: sha256(gzipped) },
    br: { file: `${file}.br`, sha256: sha256(brotli) },
  },
  all_traces: allTraces,
  made_with: { node: process.versions.node, brotli: process.versions.brotli, esbuild: require('esbuild/package.json').version },
});
fs.writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);
console.log(`${file}: ${raw.length} bytes (sha256 ${record.sha256}), gzip ${gzipped.length}, br ${brotli.length}`);
