#!/usr/bin/env node
// A tool for the chat step of pipeline.yaml: counts the words and characters of a text.
// The runner starts it as an argv list (never through a shell), with the pipeline's folder as
// the working directory, writes the tool call's arguments as JSON on stdin, and reads the
// answer from stdout (JSON here).
import { readFileSync } from "node:fs";

const input = readFileSync(0, "utf8").trim();
const args = input ? JSON.parse(input) : {};
const text = typeof args.text === "string" ? args.text : "";
const words = text.split(/\s+/).filter(Boolean);
const longest = words.reduce((a, b) => (b.length > a.length ? b : a), "");
process.stdout.write(
  `${JSON.stringify({ words: words.length, characters: text.length, longest })}\n`,
);
