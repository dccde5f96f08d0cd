// The pad's view in a chat (MCP Apps, the `io.modelcontextprotocol/ui`
// extension): the `ui://rustpad/pad` resource, the link to it from the
// calls after which a person wants to look at the pad (every write, which
// changes it or holds a suggestion for them to decide, and
// list_suggestions; never a read, which changes nothing and which an agent
// makes many times, so a host would draw the pad after each), and the
// view's own tools (app-only). A client that does not declare the
// extension sees tools/list as before: no `_meta.ui`, no view tools, and a
// call to one is refused.
//
// Who initiated a call is not in the MCP Apps spec yet (ext-apps#738): a
// host says so in the request's `_meta["rustpad-mcp/host"]` as
// `{"initiator": "app" | "model"}`. Nothing there names a person: a
// decision lands only after a person says yes in the host's own dialog
// (view_tools.ts).

// @ts-types="@modelcontextprotocol/server"
import type {
  ClientCapabilities,
  JSONRPCRequest,
  ListResourcesResult,
  ListToolsResult,
  McpServer,
  RegisteredTool,
  Result,
  ServerContext,
} from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/ext-apps/server"
import {
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from "@modelcontextprotocol/ext-apps/server";
import { type HostSays, VIEW_TOOLS } from "../tools/mod.ts";
import { requestCapabilities } from "./_eras.ts";

/** The view's resource. */
export const PAD_VIEW_URI = "ui://rustpad/pad";
/** The request `_meta` key a host says who initiated a call in. */
export const HOST_META_KEY = "rustpad-mcp/host";

const VIEW_TOOL_NAMES: ReadonlySet<string> = new Set(
  VIEW_TOOLS.map((tool) => tool.name),
);

/** Whether `capabilities` declare that the client renders views. */
function rendersViews(capabilities: ClientCapabilities | undefined): boolean {
  return getUiCapability(capabilities)?.mimeTypes?.includes(
    RESOURCE_MIME_TYPE,
  ) === true;
}

/** What the client and its host say of one request. */
export function hostSays(
  server: McpServer,
  ctx: ServerContext,
  meta: Record<string, unknown> | undefined,
): HostSays {
  const views = rendersViews(requestCapabilities(server, ctx));
  const said = meta?.[HOST_META_KEY] as Record<string, unknown> | undefined;
  const initiator = said?.initiator;
  return {
    views,
    initiator: typeof initiator === "string" ? initiator : undefined,
  };
}

/** Why a call of tool `name` is refused for this client, if it is. */
export function viewRefusal(name: string, host: HostSays): string | undefined {
  if (!VIEW_TOOL_NAMES.has(name) || host.views) return undefined;
  return `Cannot call tool "${name}" as it serves the pad's view: current client does not declare the io.modelcontextprotocol/ui extension`;
}

/**
 * Serve the view's resource, link the single-pad tools to it, mark the
 * view's tools app-only, and answer tools/list per client. Call after the
 * tools are registered.
 */
export function registerPadView(
  mcp: McpServer,
  registered: ReadonlyMap<string, RegisteredTool>,
  generated?: ListToolsResult,
): void {
  mcp.registerResource(
    "Pad view",
    PAD_VIEW_URI,
    {
      title: "A pad, live, with the agent's suggestions",
      description:
        "The view a host shows for a tool call on one pad: its text, people and pending suggestions with Accept and Reject.",
      mimeType: RESOURCE_MIME_TYPE,
    },
    // The 234 KB bundle is imported on the first read, not at every start.
    async (uri) => ({
      contents: [{
        uri: uri.href,
        mimeType: RESOURCE_MIME_TYPE,
        text: (await import("./_pad_view_html.ts")).PAD_VIEW_HTML,
        // Everything is inline; the view reaches the pad through the host.
        _meta: { ui: { csp: {}, prefersBorder: true } },
      }],
    }),
  );
  for (const [name, tool] of registered) {
    const ui = VIEW_TOOL_NAMES.has(name)
      ? { resourceUri: PAD_VIEW_URI, visibility: ["app"] }
      : linksView(name, tool)
      ? { resourceUri: PAD_VIEW_URI }
      : undefined;
    // The flat key too, for hosts from before `_meta.ui` (as ext-apps does).
    if (ui !== undefined) {
      tool._meta = { ui, [RESOURCE_URI_META_KEY]: PAD_VIEW_URI };
    }
  }
  const listed = sdkHandlers(mcp);
  SDK_LISTS.set(mcp, listed);
  mcp.server.setRequestHandler("tools/list", async (request, ctx) => {
    const all = generated ??
      await listed("tools/list", request, ctx) as ListToolsResult;
    if (rendersViews(requestCapabilities(mcp, ctx))) return all;
    return {
      ...all,
      tools: all.tools.filter((tool) => !VIEW_TOOL_NAMES.has(tool.name)).map((
        { _meta, ...tool },
      ) => tool),
    };
  });
  mcp.server.setRequestHandler("resources/list", async (request, ctx) => {
    const all = await listed(
      "resources/list",
      request,
      ctx,
    ) as ListResourcesResult;
    if (rendersViews(requestCapabilities(mcp, ctx))) return all;
    return {
      ...all,
      resources: all.resources.filter((each) => each.uri !== PAD_VIEW_URI),
    };
  });
}

/** The SDK's own list handlers of each server, by server. */
const SDK_LISTS = new WeakMap<McpServer, ReturnType<typeof sdkHandlers>>();

/**
 * The tools/list the SDK itself builds for `mcp` (after
 * {@linkcode registerPadView}), every tool and `_meta` included: what
 * `_tools_list.json` must hold for its configuration.
 */
export async function sdkToolsList(mcp: McpServer): Promise<ListToolsResult> {
  const listed = SDK_LISTS.get(mcp);
  if (listed === undefined) {
    throw new Error(
      "Cannot list the SDK's tools as registerPadView has not run on this server",
    );
  }
  const ctx = { mcpReq: { id: 0 } } as unknown as ServerContext;
  return await listed(
    "tools/list",
    { method: "tools/list" },
    ctx,
  ) as ListToolsResult;
}

/**
 * The SDK's own handlers of the lists, taken before they are replaced: the
 * SDK builds each list from what is registered; this layer only narrows it
 * per client.
 */
function sdkHandlers(
  mcp: McpServer,
): (
  method: "tools/list" | "resources/list",
  request: { method: string; params?: unknown },
  ctx: ServerContext,
) => Promise<Result> {
  const server = mcp.server as unknown as {
    _getRequestHandler(
      method: string,
    ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;
  };
  const handlers = {
    "tools/list": server._getRequestHandler("tools/list"),
    "resources/list": server._getRequestHandler("resources/list"),
  };
  return (method, request, ctx) =>
    handlers[method](
      { jsonrpc: "2.0", id: ctx.mcpReq.id, ...request } as JSONRPCRequest,
      ctx,
    );
}

/** The read that links the view: a person looks at what awaits them. */
const LINKED_READS: ReadonlySet<string> = new Set(["list_suggestions"]);

/**
 * Whether a host shows the view after a call of the tool: it works on one
 * pad (takes its `id`) and writes to it, or is a {@linkcode LINKED_READS}.
 */
function linksView(name: string, tool: RegisteredTool): boolean {
  const shape = (tool.inputSchema as { shape?: Record<string, unknown> })
    ?.shape;
  if (shape?.id === undefined) return false;
  return tool.annotations?.readOnlyHint !== true || LINKED_READS.has(name);
}
