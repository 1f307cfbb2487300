// The Palace page's front end: the page's widgets drawn by ipywidgets' own controls, talking
// to the page's kernel, without JupyterLab's application (palace/app/server/light/README.md).
//
// Voilà's server still runs the notebook and writes the page; each output it wrote as a
// `application/vnd.voila.cell-output+json` script is drawn here, in place, as Voilà's own
// front end would draw it (the same classes, so the page's style sheets apply unchanged).
import * as base from "@jupyter-widgets/base";
import { ManagerBase } from "@jupyter-widgets/base-manager";
import * as controls from "@jupyter-widgets/controls";
import {
  RenderMimeRegistry,
  standardRendererFactories,
} from "@jupyterlab/rendermime";
import { ServerConnection } from "@jupyterlab/services/lib/serverconnection";
import { KernelConnection } from "@jupyterlab/services/lib/kernel/default";
import { Widget } from "@lumino/widgets";

import "@jupyter-widgets/base/css/index.css";
import "@jupyter-widgets/controls/css/widgets-base.css";
import "./page.css";

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
const CELL_OUTPUT = 'script[type="application/vnd.voila.cell-output+json"]';
const SHOW_AFTER_MS = 8000;
const MODULES = {
  "@jupyter-widgets/base": base,
  "@jupyter-widgets/controls": controls,
};

/** A widget manager whose models live in the page's kernel (as JupyterLab's does). */
export class PageManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    kernel.registerCommTarget(this.comm_target_name, async (comm, msg) => {
      await this.handle_comm_open(new base.shims.services.Comm(comm), msg);
    });
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    if (module && module[className]) {
      return module[className];
    }
    throw new Error(`the page has no ${className} of ${moduleName} ${moduleVersion}`);
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: this.comm_target_name });
    if (reply.content.status !== "ok") {
      throw new Error("the kernel did not list its widgets");
    }
    return reply.content.comms;
  }

  /** Every widget the kernel holds, with its state (one message: ipywidgets 8's control comm). */
  load() {
    return this._loadFromKernel();
  }
}

/** The output an nbformat output is drawn as: its mime type and data. */
function asMime(output) {
  if (output.output_type === "stream") {
    const mime = `application/vnd.jupyter.${output.name === "stderr" ? "stderr" : "stdout"}`;
    const text = Array.isArray(output.text) ? output.text.join("") : output.text;
    return { data: { [mime]: text }, metadata: {} };
  }
  if (output.output_type === "error") {
    return {
      data: { "application/vnd.jupyter.stderr": (output.traceback || []).join("\n") },
      metadata: {},
    };
  }
  return { data: output.data || {}, metadata: output.metadata || {} };
}

/** Put `widget` where `script` (an output Voilà wrote) was. */
function replaceScript(script, widget) {
  const parent = script.parentElement;
  parent.removeChild(script);
  Widget.attach(widget, parent);
}

/** Say on the page, not only in the console, that an output could not be drawn. */
function sayNotDrawn(node, text) {
  const pre = document.createElement("pre");
  pre.className = "lm-Widget jp-RenderedText";
  pre.setAttribute("data-mime-type", "application/vnd.jupyter.stderr");
  pre.textContent = text;
  node.appendChild(pre);
}

/** Draw one widget view in place of `script`. */
async function drawWidget(manager, script, modelId) {
  const holder = new Widget();
  holder.addClass("lm-Panel");
  holder.addClass("jp-OutputArea-output");
  replaceScript(script, holder);
  try {
    const model = await manager.get_model(modelId);
    const view = await manager.create_view(model);
    Widget.attach(view.luminoWidget, holder.node);
  } catch (error) {
    // a widget this front end does not know (a library other than ipywidgets' controls)
    sayNotDrawn(holder.node, `This output could not be drawn here (${error.message}).`);
    console.error("a widget could not be drawn", error);
  }
}

/** Draw any other output (text, HTML, an image, a stream) with JupyterLab's renderers. */
async function drawOutput(rendermime, script, output) {
  const mime = asMime(output);
  const type = rendermime.preferredMimeType(mime.data, "any");
  if (!type) {
    return;
  }
  const renderer = rendermime.createRenderer(type);
  renderer.addClass("jp-OutputArea-output");
  renderer.node.setAttribute("data-mime-type", type);
  replaceScript(script, renderer);
  try {
    await renderer.renderModel({ data: mime.data, metadata: mime.metadata, trusted: true });
  } catch (error) {
    sayNotDrawn(renderer.node, `Javascript Error: ${error.message}`);
  }
}

function showCells() {
  window.themeLoaded = true;
  if (typeof window.display_cells === "function") {
    window.display_cells();
  }
}

function shutdownOnLeave(baseUrl, kernel) {
  window.addEventListener("beforeunload", () => {
    const data = new FormData();
    const matches = document.cookie.match("\\b_xsrf=([^;]*)\\b");
    data.append("_xsrf", (matches && matches[1]) || "");
    window.navigator.sendBeacon(`${baseUrl}voila/api/shutdown/${kernel.id}`, data);
    kernel.dispose();
  });
}

async function main() {
  const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  const baseUrl = config.baseUrl;
  const serverSettings = ServerConnection.makeSettings({ baseUrl });
  const kernel = new KernelConnection({
    model: { id: config.kernelId, name: "python3" },
    serverSettings,
  });
  const manager = new PageManager(kernel);
  const ready = { promise: Promise.resolve(manager) };
  // what palace-page.js watches: the kernel's connection (as on Voilà's own page)
  window.jupyterapp = { widgetManagerPromise: ready, widgetManager: manager };
  shutdownOnLeave(baseUrl, kernel);

  const rendermime = new RenderMimeRegistry({ initialFactories: standardRendererFactories });
  await manager.load();
  const scripts = [...document.body.querySelectorAll(CELL_OUTPUT)];
  const drawn = Promise.all(
    scripts.map((script) => {
      const output = JSON.parse(script.textContent);
      const view = output.data && output.data[WIDGET_VIEW];
      if (view && manager.has_model(view.model_id)) {
        return drawWidget(manager, script, view.model_id);
      }
      return drawOutput(rendermime, script, output);
    }),
  );
  // the cells are shown once every output is drawn (no half-drawn page), or after a few
  // seconds all the same: one output that never draws must not hide the others
  await Promise.race([drawn, new Promise((resolve) => setTimeout(resolve, SHOW_AFTER_MS))]);
  showCells();
  await drawn;
  document.documentElement.setAttribute("data-palace-page", "drawn");
}

main().catch((error) => {
  console.error("the page could not be drawn", error);
  showCells();
});
