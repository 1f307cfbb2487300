// Build the page's front end: src/page.js and what it imports, in one minified script and one
// style sheet, into dist/ (served by palace.app.server). The npm packages are installed
// elsewhere (PALACE_PAGE_MODULES: the Makefile's build/page/node_modules), from this
// folder's package.json and package-lock.json.
const path = require("node:path");

const modules = process.env.PALACE_PAGE_MODULES || path.join(__dirname, "node_modules");
const { build } = require(path.join(modules, "esbuild"));

build({
  entryPoints: [path.join(__dirname, "src", "page.js")],
  outfile: path.join(__dirname, "dist", "palace-page.js"),
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  nodePaths: [modules],
  loader: { ".woff": "file", ".woff2": "file", ".ttf": "file", ".eot": "file", ".svg": "dataurl" },
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "linked",
  logLevel: "warning",
}).catch(() => process.exit(1));
