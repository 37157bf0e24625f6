#!/usr/bin/env node
// A tool for the chat step of pipeline.yaml: counts the words and characters of a text.
// The runner starts it as an argv list (never through a shell). It takes the tool call's
// arguments as JSON, from its last argument if that is JSON, else from stdin, and prints
// its result as JSON on stdout.
import { readFileSync } from "node:fs";

function readArguments() {
  const last = process.argv.at(-1) ?? "";
  if (last.trim().startsWith("{")) return JSON.parse(last);
  const text = readFileSync(0, "utf8").trim();
  return text ? JSON.parse(text) : {};
}

const args = readArguments();
const text = typeof args.text === "string" ? args.text : "";
const words = text.split(/\s+/).filter(Boolean);
process.stdout.write(
  `${JSON.stringify({ words: words.length, characters: text.length, longest: words.reduce((a, b) => (b.length > a.length ? b : a), "") })}\n`,
);
