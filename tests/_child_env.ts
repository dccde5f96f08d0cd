// The environment a child process of a test needs: what Deno reads to find
// its cache and reach the npm registry (DENO_DIR, the TLS and proxy
// settings), and nothing of the test's own configuration. The SDK's
// StdioClientTransport passes a child only HOME, PATH, SHELL, TERM and USER
// unless given `env`, so a child started with a fresh DENO_DIR would look
// in the default cache and try to download what the parent already has.

/** Variables a child Deno reads for its cache, TLS, proxies and home. */
const INHERITED = [
  "HOME",
  "PATH",
  "USER",
  "LOGNAME",
  "TMPDIR",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_AUTH_TOKENS",
  "DENO_NO_UPDATE_CHECK",
  "NPM_CONFIG_REGISTRY",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "CHROMIUM_PATH",
];

/**
 * The environment for a child: the inherited variables that are set, then
 * `NO_COLOR=1`, then `extra` (which wins).
 */
export function childEnv(
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}
