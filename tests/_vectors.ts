// Reads the golden vectors kept in tests/vectors/ (see its README.md).

const VECTORS = new URL("./vectors/", import.meta.url);

/** Every line of a JSON Lines file in `tests/vectors/`, parsed. */
export async function readVectors(
  name: string,
): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(new URL(name, VECTORS));
  return text.split("\n").filter((line) => line.trim() !== "").map((line) =>
    JSON.parse(line)
  );
}
