// A new person's name and colour: an adjective and one of Rustpad's animals
// (64 × 114 = 7,296 names, so ten people in a pad share one about once in
// 160 pads, where seven animals alone made it nearly certain), kept across
// visits in the browser's storage.

import type { UserInfo } from "../../rustpad/protocol.ts";

// deno-fmt-ignore
const ADJECTIVES = [
  "Amber", "Agile", "Bold", "Brave", "Bright", "Calm", "Clever", "Cosmic",
  "Crimson", "Curious", "Dapper", "Daring", "Eager", "Electric", "Emerald",
  "Fancy", "Fearless", "Gentle", "Gilded", "Golden", "Happy", "Hasty",
  "Honest", "Humble", "Indigo", "Jade", "Jolly", "Kind", "Lively", "Lucky",
  "Lunar", "Mellow", "Merry", "Mighty", "Misty", "Nimble", "Noble", "Olive",
  "Patient", "Plucky", "Polite", "Proud", "Quick", "Quiet", "Rapid", "Rosy",
  "Rustic", "Sage", "Scarlet", "Serene", "Silver", "Sleepy", "Snowy", "Solar",
  "Speedy", "Sunny", "Swift", "Teal", "Tidy", "Violet", "Wise", "Witty",
  "Zany", "Zesty",
];

/** Rustpad's animals (its `animals.json`). */
// deno-fmt-ignore
const ANIMALS = [
  "Alligator", "Ant", "Anteater", "Antelope", "Arctic Fox", "Armadillo",
  "Badger", "Bat", "Beaver", "Bee", "Beetle", "Black Bear", "Buffalo",
  "Butterfly", "Camel", "Cat", "Chameleon", "Cheetah", "Chicken", "Cicada",
  "Clam", "Cockatoo", "Cockroach", "Cow", "Coyote", "Crab", "Cricket",
  "Crow", "Deer", "Dog", "Dolphin", "Donkey", "Dove", "Dragonfly", "Duck",
  "Eagle", "Eel", "Elephant", "Ferret", "Fish", "Fly", "Fox", "Frog",
  "Gazelle", "Goat", "Grasshopper", "Grizzly Bear", "Groundhog",
  "Guinea Pig", "Hedgehog", "Hen", "Hippopotamus", "Horse", "Hummingbird",
  "Hyena", "Koala", "Leopard", "Lion", "Llama", "Lobster", "Lynx", "Meerkat",
  "Mole", "Moose", "Moth", "Mouse", "Octopus", "Orangutan", "Orca",
  "Ostrich", "Owl", "Panda Bear", "Panther", "Parrot", "Penguin", "Pig",
  "Pigeon", "Polar Bear", "Rabbit", "Raccoon", "Reindeer", "Robin",
  "Sea Lion", "Sea Otter", "Seagull", "Seahorse", "Seal", "Shark", "Sheep",
  "Shrimp", "Slug", "Snail", "Snake", "Sparrow", "Squid", "Squirrel",
  "Starfish", "Swan", "Tiger", "Turkey", "Turtle", "Wallaby", "Walrus",
  "Wasp", "Water Buffalo", "Weasel", "Weaver", "Whale", "Wildcat", "Wilddog",
  "Wolf", "Wolverine", "Wombat", "Woodpecker",
];

const STORAGE_KEY = "rustpad-user";

/** A fresh random name and hue. */
export function randomPerson(): UserInfo {
  const [adjective, animal, hue] = crypto.getRandomValues(new Uint32Array(3));
  return {
    name: `${ADJECTIVES[adjective! % ADJECTIVES.length]} ${
      ANIMALS[animal! % ANIMALS.length]
    }`,
    hue: hue! % 360,
  };
}

/** This person's name and colour, kept across visits, else a new one. */
export function savedPerson(): UserInfo {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "");
    if (typeof saved.name === "string" && Number.isInteger(saved.hue)) {
      return { name: saved.name, hue: saved.hue };
    }
  } catch { /* a first visit */ }
  return randomPerson();
}

/** Keep `user` for the next visit. */
export function savePerson(user: UserInfo): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
}
