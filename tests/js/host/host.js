// A minimal MCP Apps host for gm's browser tests: the reference host bridge (AppBridge from
// @modelcontextprotocol/ext-apps) over the reference TypeScript MCP client, bundled by esbuild at
// test set-up (tests/js/build/host.js).  Like a desktop chat app, it shows a tool's ui:// resource in a
// sandboxed iframe (srcdoc, scripts only) beside the tool call, sends the view the tool's input and
// result, forwards the view's tool calls and reads to gm, and keeps what it did for the test to read:
// every message to and from the view, the size notifications, the view's tool calls.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";

const H = {
  client: null,
  tools: new Map(),
  bridge: null,
  frame: null,
  toView: [], // every JSON-RPC message the host sent the view
  fromView: [], // every message the view sent the host
  sizes: [],
  viewCalls: [], // the tools/call requests the view made (forwarded to gm)
  context: null,
  mounts: 0,
  csp: null, // a content-security policy to put in the view's document
};

async function connect(url, { apps = true } = {}) {
  const capabilities = apps ? { extensions: { [UI]: { mimeTypes: [MIME] } } } : {};
  H.client = new Client({ name: "gm-test-host", version: "1.0.0" }, { capabilities });
  await H.client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await listTools();
  return { server: H.client.getServerVersion(), capabilities: H.client.getServerCapabilities() };
}

async function listTools() {
  const listed = await H.client.listTools();
  H.tools = new Map(listed.tools.map((t) => [t.name, t]));
  return listed.tools;
}

// a tool call made by "the model": shown in a new view when the tool links one (as a chat host does)
async function call(name, args = {}, { show = false } = {}) {
  const result = await H.client.callTool({ name, arguments: args });
  if (show) {
    const tool = H.tools.get(name) || (await listTools(), H.tools.get(name));
    const uri = tool && getToolUiResourceUri(tool);
    if (uri) await mount(uri, tool, args, result);
  }
  return result;
}

function record(list, message) {
  list.push(JSON.parse(JSON.stringify(message)));
}

async function mount(uri, tool, args, result) {
  if (H.bridge) { try { await H.bridge.teardownResource({}); } catch {} H.frame.remove(); }
  const read = await H.client.readResource({ uri });
  const content = read.contents[0];
  if (content.mimeType !== MIME) throw new Error(`the view is ${content.mimeType}, not ${MIME}`);
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("title", "gm board");
  frame.style.width = "760px";
  frame.style.height = "400px";
  H.context = {
    theme: "dark",
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { maxHeight: 2000, width: 760 },
    platform: "desktop",
    toolInfo: { id: 1, tool },
    styles: { variables: { "--color-background-primary": "#101820", "--color-text-primary": "#f0f0e8" } },
  };
  const bridge = new AppBridge(H.client, { name: "gm-test-host", version: "1.0.0" },
    { serverTools: {}, serverResources: {}, logging: {}, openLinks: {} }, { hostContext: H.context });
  bridge.addEventListener("sizechange", (size) => { H.sizes.push(size); if (size.height) frame.style.height = `${size.height}px`; });
  const initialized = new Promise((resolve) => bridge.addEventListener("initialized", resolve));
  H.bridge = bridge;
  H.frame = frame;
  H.mounts += 1;
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  // the policy a host puts around a view that declared no domains: nothing from the network
  frame.srcdoc = H.csp ? content.text.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${H.csp}">`) : content.text;
  document.getElementById("frames").appendChild(frame);
  await loaded;
  const transport = new PostMessageTransport(frame.contentWindow, frame.contentWindow);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => { record(H.toView, message); return send(message, options); };
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      record(H.fromView, message);
      if (message.method === "tools/call") H.viewCalls.push(message.params);
      deliver?.(message, extra);
    };
  };
  await bridge.connect(transport);
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
}

async function sendResult(result) {
  await H.bridge.sendToolResult(result);
}

function setTheme(theme, variables = {}) {
  H.context = { ...H.context, theme, styles: { variables } };
  H.bridge.setHostContext(H.context);
}

// a new test on the same page: what the host recorded starts again
function reset() {
  for (const list of [H.toView, H.fromView, H.sizes, H.viewCalls]) list.length = 0;
  H.mounts = 0;
}

window.gmHost = { H, connect, listTools, call, sendResult, setTheme, reset, ready: true };
document.body.dataset.ready = "true";
