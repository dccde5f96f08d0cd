// The version published to JSR, read from deno.json so there is one source.
import denoJson from "../../deno.json" with { type: "json" };

/** This package's version. */
export const VERSION: string = denoJson.version;
