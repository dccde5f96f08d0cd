import assert from "node:assert/strict";
import { defaultPadsFile } from "../../src/cli/_data_directory.ts";

Deno.test("defaultPadsFile() puts the embedded pads in the user's data directory of each system, XDG_DATA_HOME first on Linux", () => {
  assert.equal(
    defaultPadsFile({ HOME: "/home/ada" }, "linux"),
    "/home/ada/.local/share/rustpad-mcp/pads.sqlite",
  );
  assert.equal(
    defaultPadsFile({ HOME: "/home/ada", XDG_DATA_HOME: "/data" }, "linux"),
    "/data/rustpad-mcp/pads.sqlite",
  );
  assert.equal(
    defaultPadsFile({ HOME: "/Users/ada" }, "darwin"),
    "/Users/ada/Library/Application Support/rustpad-mcp/pads.sqlite",
  );
  assert.equal(
    defaultPadsFile({
      LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local",
      APPDATA: "C:\\Users\\ada\\AppData\\Roaming",
    }, "windows"),
    "C:\\Users\\ada\\AppData\\Local\\rustpad-mcp\\pads.sqlite",
  );
});

Deno.test("defaultPadsFile() ignores a relative XDG_DATA_HOME, as XDG asks, and names no file without a home", () => {
  assert.equal(
    defaultPadsFile({ HOME: "/home/ada", XDG_DATA_HOME: "data" }, "linux"),
    "/home/ada/.local/share/rustpad-mcp/pads.sqlite",
  );
  assert.equal(defaultPadsFile({ HOME: "  " }, "linux"), undefined);
  assert.equal(defaultPadsFile({}, "windows"), undefined);
});
