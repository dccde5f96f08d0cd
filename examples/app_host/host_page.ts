/// <reference lib="dom" />
// A small MCP Apps host in a browser page, for trying the pad's view and
// for its tests: the v2 SDK client connects to this server over Streamable
// HTTP (at /mcp, which serve.ts forwards) declaring the
// io.modelcontextprotocol/ui extension, calls a tool on the pad named in
// the page's URL (`?pad=NAME&tool=TOOL`, as a model would), and shows the
// view that tool links to in a sandboxed frame, on ext-apps' AppBridge. The
// view's tool calls go to the server marked as the view's; when the server
// asks the person (a decision on a suggestion), the host shows its own
// dialog (form elicitation), as a chat host does. What the view puts in the
// model's context is shown under it.

import {
  AppBridge,
  PostMessageTransport,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";

const UI_EXTENSION = "io.modelcontextprotocol/ui";
const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** What tests read and drive. */
interface HostState {
  /** Each `ui/update-model-context` the view sent, in order. */
  modelContext: unknown[];
  /** Set the theme the view follows. */
  setTheme(theme: "light" | "dark"): void;
  /** The tool list as the model would see it, by name. */
  modelTools: string[];
  /** Each question the server asked the person in the host's dialog. */
  dialogs: string[];
  /** Why the host could not show the view, if it could not. */
  error?: string;
}

const params = new URLSearchParams(location.search);
const padId = params.get("pad") ?? "welcome";
const toolName = params.get("tool") ?? "list_suggestions";
let theme: "light" | "dark" = params.get("theme") === "dark" ? "dark" : "light";
const state: HostState = {
  modelContext: [],
  modelTools: [],
  dialogs: [],
  setTheme() {},
};
(globalThis as { host?: HostState }).host = state;

/**
 * Ask the person in the host's own dialog (`#ask`): Confirm accepts with
 * `confirm: true`, Decline declines, closing it cancels.
 */
function askPerson(
  message: string,
): Promise<
  { action: "accept" | "decline" | "cancel"; content?: { confirm: boolean } }
> {
  state.dialogs.push(message);
  const dialog = document.getElementById("ask") as HTMLDialogElement;
  document.getElementById("ask-text")!.textContent = message;
  dialog.showModal();
  return new Promise((resolve) => {
    const answer = (action: "accept" | "decline" | "cancel") => () => {
      dialog.close();
      resolve(
        action === "accept"
          ? { action, content: { confirm: true } }
          : { action },
      );
    };
    document.getElementById("ask-yes")!.onclick = answer("accept");
    document.getElementById("ask-no")!.onclick = answer("decline");
    dialog.oncancel = answer("cancel");
  });
}

function say(text: string): void {
  document.getElementById("status")!.textContent = text;
}

async function main(): Promise<void> {
  const client = new Client(
    { name: "rustpad-app-host", version: "0.1.0" },
    {
      capabilities: {
        extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } },
        elicitation: { form: {} },
      },
    },
  );
  client.setRequestHandler(
    "elicitation/create",
    (request) => askPerson((request.params as { message: string }).message),
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", location.href)),
  );
  const { tools } = await client.listTools();
  state.modelTools = tools.filter((tool) => {
    const visibility = (tool._meta?.ui as { visibility?: string[] } | undefined)
      ?.visibility;
    return visibility === undefined || visibility.includes("model");
  }).map((tool) => tool.name);
  const tool = tools.find((each) => each.name === toolName);
  const uri = (tool?._meta?.ui as { resourceUri?: string } | undefined)
    ?.resourceUri;
  if (uri === undefined) throw new Error(`${toolName} links no view`);
  // As a model would: the call the host shows the view for.
  const args = { id: padId };
  const result = await client.callTool({ name: toolName, arguments: args });
  const resource = await client.readResource({ uri });
  const html = (resource.contents[0] as { text?: string }).text ?? "";
  const frame = document.createElement("iframe");
  frame.sandbox.add("allow-scripts");
  frame.title = `Pad ${padId}`;
  const box = document.getElementById("view")!;
  box.replaceChildren(frame);
  const containerDimensions = { width: box.clientWidth, maxHeight: 520 };
  const bridge = new AppBridge(
    null,
    { name: "rustpad-app-host", version: "0.1.0" },
    { serverTools: {}, updateModelContext: { text: {} }, logging: {} },
    {
      hostContext: {
        theme,
        displayMode: "inline",
        containerDimensions,
        toolInfo: { id: 1, tool: tool! },
        platform: "web",
      },
    },
  );
  bridge.oncalltool = async (request) =>
    await client.callTool({
      ...request,
      // This host says the view made the call (see src/mcp/_app_view.ts).
      _meta: { ...request._meta, "rustpad-mcp/host": { initiator: "app" } },
    }) as Awaited<ReturnType<NonNullable<typeof bridge.oncalltool>>>;
  bridge.onupdatemodelcontext = (context) => {
    state.modelContext.push(context);
    const text =
      context.content?.map((part) => part.type === "text" ? part.text : "")
        .join("\n") ?? "";
    document.getElementById("context")!.textContent = text || "(nothing)";
    return Promise.resolve({});
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.min(height, 520)}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: args });
    void bridge.sendToolResult(
      result as Parameters<typeof bridge.sendToolResult>[0],
    );
  };
  state.setTheme = (next) => {
    theme = next;
    document.documentElement.dataset.theme = next;
    bridge.setHostContext({
      theme: next,
      displayMode: "inline",
      containerDimensions,
    });
  };
  document.documentElement.dataset.theme = theme;
  // Listening before the view loads: its first message comes at once.
  await bridge.connect(
    new PostMessageTransport(frame.contentWindow!, frame.contentWindow!),
  );
  frame.srcdoc = html;
  say(`${toolName} on pad "${padId}", shown by its view`);
}

main().catch((error) => {
  state.error = (error as Error).message;
  say(`Cannot show the view: ${state.error}`);
});
