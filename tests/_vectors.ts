// Reads the golden vectors that sit beside the repository in ../shared.

const VECTORS = new URL("../../shared/vectors/", import.meta.url);

/** Every line of a JSON Lines file in `../shared/vectors/`, parsed. */
export async function readVectors(
  name: string,
): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(new URL(name, VECTORS));
  return text.split("\n").filter((line) => line.trim() !== "").map((line) =>
    JSON.parse(line)
  );
}
