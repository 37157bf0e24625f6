"use strict";
// Requires every entry point named on the command line, as a CommonJS program does, and
// prints how many exports each has. A module graph with top-level await would throw
// ERR_REQUIRE_ASYNC_MODULE here.
const loaded = {};
for (const specifier of process.argv.slice(2)) {
  loaded[specifier] = Object.keys(require(specifier)).length;
}
console.log(JSON.stringify(loaded));
