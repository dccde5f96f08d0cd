const t = (l: string, a: number) => console.log(l.padEnd(14), (performance.now() - a).toFixed(1));
const T0 = performance.now();
let a = performance.now(); await import("zod"); t("zod", a);
a = performance.now(); await import("@modelcontextprotocol/server"); t("sdk server", a);
a = performance.now(); await import("@modelcontextprotocol/server/stdio"); t("sdk stdio", a);
for (const m of ["ot","text","http","rustpad","config","safety","backend","tools","mcp","pad_server","testing","cli"]) {
  a = performance.now(); await import(`/work/main/src/${m}/mod.ts`); t(m, a);
}
a = performance.now(); await import("/work/main/mod.ts"); t("mod", a);
t("total", T0);
