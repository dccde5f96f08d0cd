// A real headless Chromium driven over the DevTools protocol, raw: the
// system's `chromium-headless-shell` (or `chromium`), one WebSocket to the
// browser, one flat session per page, each page in a fresh browser context
// (its own storage, as a second person would have).

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--remote-debugging-port=0",
];

const CANDIDATES = [
  "chromium-headless-shell",
  "/usr/lib/chromium/chromium-headless-shell",
  "chromium",
  "/usr/lib/chromium/chromium",
  "google-chrome",
];

/** The Chromium binary, or an error that says how to get one. */
export function findChromium(): string {
  const chosen = Deno.env.get("CHROMIUM_PATH");
  const paths = (Deno.env.get("PATH") ?? "").split(":");
  for (const candidate of chosen === undefined ? CANDIDATES : [chosen]) {
    const full = candidate.includes("/")
      ? [candidate]
      : paths.map((dir) => `${dir}/${candidate}`);
    for (const path of full) {
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch { /* not here */ }
    }
  }
  throw new Error(
    `Cannot run the browser tests as no Chromium was found: install it with "apt-get install -y chromium-headless-shell" (bash .ci/run does) or set CHROMIUM_PATH; current candidates are ${
      (chosen === undefined ? CANDIDATES : [chosen]).join(", ")
    }`,
  );
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

type Listener = (params: Record<string, unknown>, session?: string) => void;

/** One headless browser. */
export class Browser implements AsyncDisposable {
  readonly #process: Deno.ChildProcess;
  readonly #socket: WebSocket;
  readonly #profile: string;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<{ method: string; listener: Listener }>();
  #next = 1;

  private constructor(
    process: Deno.ChildProcess,
    socket: WebSocket,
    profile: string,
  ) {
    this.#process = process;
    this.#socket = socket;
    this.#profile = profile;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.id !== undefined) {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) {
          pending?.reject(new Error(`CDP: ${message.error.message}`));
        } else pending?.resolve(message.result);
        return;
      }
      for (const { method, listener } of this.#listeners) {
        if (method === message.method) {
          listener(message.params, message.sessionId);
        }
      }
    };
  }

  /** Start Chromium and connect to it. */
  static async launch(): Promise<Browser> {
    const binary = findChromium();
    const profile = await Deno.makeTempDir({ prefix: "rustpad-chromium-" });
    const process = new Deno.Command(binary, {
      args: [...FLAGS, `--user-data-dir=${profile}`, "about:blank"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const lines = process.stderr.pipeThrough(new TextDecoderStream())
      .getReader();
    let seen = "";
    let endpoint: string | undefined;
    const deadline = setTimeout(() => lines.cancel(), 20_000);
    while (endpoint === undefined) {
      const { value, done } = await lines.read();
      if (done) break;
      seen += value;
      endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
    }
    clearTimeout(deadline);
    if (endpoint === undefined) {
      process.kill("SIGKILL");
      await process.status;
      throw new Error(
        `Cannot drive Chromium as it printed no DevTools endpoint: current output is ${
          JSON.stringify(seen.slice(-500))
        }`,
      );
    }
    // Keep reading, so a chatty browser never blocks on a full pipe.
    (async () => {
      try {
        while (!(await lines.read()).done) { /* drained */ }
      } catch { /* closed */ }
    })();
    const socket = new WebSocket(endpoint);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error("Cannot reach Chromium"));
    });
    return new Browser(process, socket, profile);
  }

  /** Send one command; `session` targets a page. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    session?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#next++;
    const { promise, resolve, reject } = Promise.withResolvers<
      Record<string, unknown>
    >();
    this.#pending.set(id, { resolve, reject });
    this.#socket.send(
      JSON.stringify({ id, method, params, sessionId: session }),
    );
    return promise;
  }

  /** Listen to an event; returns a function that stops listening. */
  on(method: string, listener: Listener): () => void {
    const entry = { method, listener };
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** A new page in a new browser context, sized for a screenshot. */
  async newPage(): Promise<Page> {
    const { browserContextId } = await this.send("Target.createBrowserContext");
    const { targetId } = await this.send("Target.createTarget", {
      url: "about:blank",
      browserContextId,
    });
    const { sessionId } = await this.send("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    const page = new Page(
      this,
      sessionId as string,
      browserContextId as string,
    );
    await page.send("Page.enable");
    await page.send("Runtime.enable");
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: 1000,
      height: 560,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return page;
  }

  /** Close the browser and remove its profile. */
  async close(): Promise<void> {
    try {
      await Promise.race([
        this.send("Browser.close"),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
    } catch { /* already gone */ }
    this.#socket.close();
    const exited = await Promise.race([
      this.#process.status.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 3000)),
    ]);
    if (!exited) {
      this.#process.kill("SIGKILL");
      await this.#process.status;
    }
    await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** One tab. */
export class Page {
  readonly #browser: Browser;
  readonly #session: string;
  /** The browser context the page is alone in. */
  readonly context: string;

  constructor(browser: Browser, session: string, context: string) {
    this.#browser = browser;
    this.#session = session;
    this.context = context;
  }

  /** Grant the page's context `permissions` on `origin`. */
  async grant(origin: string, permissions: string[]): Promise<void> {
    await this.#browser.send("Browser.grantPermissions", {
      origin,
      permissions,
      browserContextId: this.context,
    });
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    return this.#browser.send(method, params, this.#session);
  }

  /** Open `url` and wait for its load event. */
  async goto(url: string): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    const stop = this.#browser.on("Page.loadEventFired", (_params, session) => {
      if (session === this.#session) resolve();
    });
    try {
      await this.send("Page.navigate", { url });
      await promise;
    } finally {
      stop();
    }
  }

  /**
   * The value of a JavaScript expression in the page, or in the execution
   * context `contextId` (a frame's) when given.
   */
  async evaluate<T>(expression: string, contextId?: number): Promise<T> {
    const answer = await this.send("Runtime.evaluate", {
      expression,
      ...(contextId === undefined ? {} : { contextId }),
      returnByValue: true,
      awaitPromise: true,
    }) as {
      result: { value: T };
      exceptionDetails?: { exception?: { description?: string } };
    };
    if (answer.exceptionDetails) {
      throw new Error(
        `Cannot evaluate ${expression} as the page threw: ${answer.exceptionDetails.exception?.description}`,
      );
    }
    return answer.result.value;
  }

  /** Wait until `expression` is truthy in the page; about `ms` at most. */
  async waitFor(expression: string, what: string, ms = 10_000): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await this.evaluate<boolean>(`!!(${expression})`)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`Timed out waiting for ${what}`);
  }

  /** Type text where the caret is, as a keyboard's input would. */
  async type(text: string): Promise<void> {
    await this.send("Input.insertText", { text });
  }

  /** Press one key, such as `Enter` or `End` (with Ctrl: modifiers 2). */
  async press(key: string, keyCode: number, modifiers = 0): Promise<void> {
    const base = { key, code: key, windowsVirtualKeyCode: keyCode, modifiers };
    await this.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...base });
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
  }

  /** Click the middle of what `selector` matches, as a mouse would. */
  async click(selector: string): Promise<void> {
    const middle = await this.evaluate<{ x: number; y: number } | null>(
      `(() => {
        const box = document.querySelector(${
        JSON.stringify(selector)
      })?.getBoundingClientRect();
        return box && { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      })()`,
    );
    if (middle === null) {
      throw new Error(
        `Cannot click ${selector} as nothing in the page matches it: current URL is ${await this
          .evaluate<string>("location.href")}`,
      );
    }
    for (const type of ["mousePressed", "mouseReleased"]) {
      await this.send("Input.dispatchMouseEvent", {
        type,
        ...middle,
        button: "left",
        clickCount: 1,
      });
    }
  }

  /** A PNG of the page, written to `path`. */
  async screenshot(path: string): Promise<void> {
    const { data } = await this.send("Page.captureScreenshot", {
      format: "png",
    });
    const bytes = Uint8Array.from(atob(data as string), (c) => c.charCodeAt(0));
    await Deno.writeFile(path, bytes);
  }
}
